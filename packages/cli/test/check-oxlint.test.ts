import path from 'node:path';
import type { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { main, type CliIo } from '../src/index.js';

const SERVER = path.resolve(import.meta.dirname, '../../../fixtures/legacy-server');

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    cwd: SERVER,
    env: {},
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/** What a report says of each finding, leaving out what only ESLint gives (message ids, suggestions). */
function findings(stdout: string) {
  return (JSON.parse(stdout) as ESLint.LintResult[]).map((result) => ({
    file: path.relative(SERVER, result.filePath),
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

  it.each([['--type-aware'], ['--cache'], ['--concurrency', 'auto']])(
    'refuses %s, which only ESLint has',
    async (...option) => {
      const { code, stderr } = await run(['check', 'src', '--engine', 'oxlint', ...option]);
      expect(code).toBe(ExitCode.UsageOrCrash);
      expect(stderr).toContain(`--engine oxlint cannot be combined with ${option[0]}`);
    },
  );
});
