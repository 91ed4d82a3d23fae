import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ESLint } from 'eslint';
import type { Log } from 'sarif';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { main, type CliIo } from '../src/index.js';
import { MANUAL_CLIENT, REWRITABLE_SERVER, tempProject } from './migrate-project.js';

const REPO = path.resolve(import.meta.dirname, '../../..');
const BIN = path.join(REPO, 'packages/cli/bin/mcp-mrtr.js');

/** Another checkout, under git, and a working directory that is not inside it. */
const checkout = tempProject(
  { 'src/server.ts': REWRITABLE_SERVER, 'src/client.ts': MANUAL_CLIENT },
  { git: true },
);
checkout.write('.gitignore', 'node_modules\ngenerated/\n');
checkout.write('src/generated/server.ts', REWRITABLE_SERVER);
checkout.git('add', '.');
checkout.git('commit', '--quiet', '-m', 'ignore generated code');
const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-elsewhere-'));
afterAll(() => {
  checkout.remove();
  rmSync(elsewhere, { recursive: true, force: true });
});

async function runElsewhere(args: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    cwd: elsewhere,
    env: {},
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/** `file:line rule` for every finding of a JSON report, relative to the checkout. */
function findings(stdout: string): string[] {
  return (JSON.parse(stdout) as ESLint.LintResult[]).flatMap((result) =>
    result.messages.map((m) => `${path.relative(checkout.dir, result.filePath)}:${m.line} ${m.ruleId}`),
  );
}

describe('paths outside the working directory (another checkout)', () => {
  it('check lints them like a run from inside, honouring that checkout’s .gitignore', async () => {
    const inside = await checkout.run(['check', '-f', 'json', 'src']);
    const outside = await runElsewhere(['check', '-f', 'json', path.join(checkout.dir, 'src')]);
    expect(outside.stdout).not.toContain('outside of base path');
    expect(outside.code).toBe(1);
    expect(findings(outside.stdout)).toEqual(findings(inside.stdout));
    expect(findings(outside.stdout)).toEqual(
      expect.arrayContaining([
        'src/server.ts:4 @mcp-mrtr/no-deprecated-logging',
        'src/server.ts:6 @mcp-mrtr/no-deprecated-logging',
        'src/client.ts:4 @mcp-mrtr/no-deprecated-logging',
      ]),
    );
    expect(findings(outside.stdout).some((finding) => finding.includes('generated'))).toBe(false);
  });

  it('reports paths relative to the checkout in the github and SARIF formats', async () => {
    const target = path.join(checkout.dir, 'src');
    const github = await runElsewhere(['check', '-f', 'github', target]);
    expect(github.stdout).toContain('::error file=src/server.ts,line=4,');
    expect(github.stdout).not.toContain('file=../');

    const sarif = JSON.parse((await runElsewhere(['check', '-f', 'sarif', target])).stdout) as Log;
    const run = sarif.runs[0];
    const uris = run?.results?.map(
      (result) => result.locations?.[0]?.physicalLocation?.artifactLocation?.uri,
    );
    expect(uris).toContain('src/server.ts');
    expect(uris?.every((uri) => uri !== undefined && !uri.startsWith('..'))).toBe(true);
    expect(Object.values(run?.originalUriBaseIds ?? {})[0]?.uri).toBe(`file://${checkout.dir}/`);
  });

  it('the built CLI, started in another directory, finds the same', () => {
    const child = spawnSync(process.execPath, [BIN, 'check', '-f', 'json', path.join(checkout.dir, 'src')], {
      cwd: elsewhere,
      encoding: 'utf8',
    });
    expect(child.status).toBe(1);
    expect(findings(child.stdout)).toContain('src/server.ts:6 @mcp-mrtr/no-deprecated-logging');
  }, 120_000);

  it('migrate diffs them with paths relative to the checkout, and writes them after asking that checkout’s git', async () => {
    // A checkout of its own: the other's client and ignored copy are candidates a one-file run cannot see.
    const server = tempProject({ 'src/server.ts': REWRITABLE_SERVER }, { git: true });
    onTestFinished(() => server.remove());
    const target = server.file('src/server.ts');
    const dry = await runElsewhere(['migrate', '--quiet', target]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('--- a/src/server.ts\n+++ b/src/server.ts\n');

    server.write('src/server.ts', `${REWRITABLE_SERVER}// edited\n`);
    const refused = await runElsewhere(['migrate', '--write', '--quiet', target]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('refusing to write: src/server.ts has uncommitted changes');
    server.git('checkout', '--', 'src/server.ts');

    const written = await runElsewhere(['migrate', '--write', '--quiet', target]);
    expect(written).toMatchObject({ code: 0, stdout: 'migrated src/server.ts\n' });
    expect(readFileSync(target, 'utf8')).toContain("import { logToStderr } from '@mcp-mrtr/runtime/logger';");
  });
});
