import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { main, type CliIo } from '../src/index.js';

const SERVER = path.resolve(import.meta.dirname, '../../../fixtures/legacy-server');

async function run(args: string[], cwd = SERVER) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    cwd,
    env: {},
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/** What a report says of each finding, leaving out what only ESLint gives (message ids, suggestions). */
function findings(stdout: string, cwd = SERVER) {
  return (JSON.parse(stdout) as ESLint.LintResult[]).map((result) => ({
    file: path.relative(cwd, result.filePath),
    messages: result.messages.map(({ ruleId, severity, message, line, column, endLine, endColumn }) => ({
      ruleId,
      severity,
      message,
      line,
      column,
      endLine,
      endColumn,
    })),
  }));
}

describe('check --engine oxlint', () => {
  // Two linters over the sample server, one of them a native binary loading the plugin.
  it('reports what the ESLint engine reports, at the same places', { timeout: 120_000 }, async () => {
    const [eslint, oxlint] = await Promise.all([
      run(['check', 'src', '--format', 'json']),
      run(['check', 'src', '--format', 'json', '--engine', 'oxlint']),
    ]);
    expect(oxlint.code).toBe(ExitCode.Findings);
    expect(oxlint.code).toBe(eslint.code);
    expect(findings(oxlint.stdout).flatMap((result) => result.messages).length).toBeGreaterThan(20);
    expect(findings(oxlint.stdout)).toEqual(findings(eslint.stdout));
    expect(oxlint.stderr).toMatch(/rules, oxlint/);
  });

  it.runIf(process.platform === 'linux')(
    'reports a file it cannot read as the ESLint engine does, and still checks the others',
    { timeout: 120_000 },
    async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-oxlint-unreadable-'));
      mkdirSync(path.join(dir, 'src'));
      writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
      writeFileSync(
        path.join(dir, 'src/server.ts'),
        `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
export const ask = () => server.server.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });
`,
      );
      // Every read of /proc/self/mem at offset 0 fails with EIO, for root too; oxlint lints such a
      // file as if it were empty.
      symlinkSync('/proc/self/mem', path.join(dir, 'src/mem.ts'));
      const args = ['check', '-f', 'json', 'src/mem.ts', 'src/server.ts'];
      const [eslint, oxlint] = await Promise.all([run(args, dir), run([...args, '--engine', 'oxlint'], dir)]);
      expect(oxlint.code).toBe(ExitCode.Findings);
      expect(oxlint.code).toBe(eslint.code);
      const [unreadable, server] = findings(oxlint.stdout, dir);
      expect(unreadable).toEqual({
        file: path.join('src', 'mem.ts'),
        messages: [
          expect.objectContaining({ severity: 2, message: 'could not read the file: EIO: i/o error, read' }),
        ],
      });
      expect(server?.messages.length).toBeGreaterThan(0);
      expect(findings(oxlint.stdout, dir)).toEqual(findings(eslint.stdout, dir));
    },
  );

  it.each([['--type-aware'], ['--cache'], ['--concurrency', 'auto']])(
    'refuses %s, which only ESLint has',
    async (...option) => {
      const { code, stderr } = await run(['check', 'src', '--engine', 'oxlint', ...option]);
      expect(code).toBe(ExitCode.UsageOrCrash);
      expect(stderr).toContain(`--engine oxlint cannot be combined with ${option[0]}`);
    },
  );
});
