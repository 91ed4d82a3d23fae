import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main, type CliIo } from '../src/index.js';

const REPO = path.resolve(import.meta.dirname, '../../..');
const LEGACY_SERVER = path.join(REPO, 'fixtures/legacy-server');
const { version } = JSON.parse(readFileSync(path.join(REPO, 'packages/cli/package.json'), 'utf8')) as {
  version: string;
};

async function run(args: string[], cwd = REPO) {
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

/** TypeScript files under a directory, counted independently of the CLI's own discovery. */
function countTypeScript(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter(
    (entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.parentPath.includes('node_modules'),
  ).length;
}

describe('mcp-mrtr', () => {
  it('prints help with both subcommands and the exit codes on stdout', async () => {
    const { code, stdout, stderr } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: mcp-mrtr \[options\] \[command\]/);
    expect(stdout).toMatch(/\bcheck \[options\] \[paths\.\.\.\]/);
    expect(stdout).toMatch(/\bmigrate \[options\] \[paths\.\.\.\]/);
    expect(stdout).toContain('2  usage error or crash');
    expect(stderr).toBe('');
  });

  it.each([['check'], ['migrate']])('documents the options of %s', async (command) => {
    const { code, stdout } = await run([command, '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('--ignore <pattern>');
    expect(stdout).toContain('--quiet');
  });

  it('documents every option of check that docs/ci.md describes', async () => {
    const { stdout } = await run(['check', '--help']);
    const ciDoc = readFileSync(path.join(REPO, 'docs/ci.md'), 'utf8');
    for (const option of [
      '--suppress-all',
      '--suppress-rule <rule>',
      '--prune-suppressions',
      '--suppressions-location <file>',
      '--changed-since <git-ref>',
      '--shard <index/count>',
      '--concurrency <n|auto|off>',
      '--cache',
      '--cache-location <file>',
    ]) {
      expect(stdout).toContain(option);
      expect(ciDoc).toContain(option.split(' ')[0]);
    }
    expect(stdout).toContain('"github"');
  });

  it('prints the package version', async () => {
    const { code, stdout } = await run(['--version']);
    expect(code).toBe(0);
    expect(stdout).toBe(`${version}\n`);
  });

  it.each([
    [[], /Usage: mcp-mrtr/],
    [['chek'], /unknown command 'chek'/],
    [['check', '--frobnicate'], /unknown option '--frobnicate'/],
    [['migrate', 'no/such/dir'], /^mcp-mrtr: no\/such\/dir: no such file or directory$/m],
  ])('exits 2 for bad usage %j, with the reason on stderr only', async (args, reason) => {
    const { code, stdout, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(reason);
    expect(stdout).toBe('');
  });

  it('checks the sample server: findings on stdout, progress on stderr, exit 1', async () => {
    const files = countTypeScript(LEGACY_SERVER);
    const { code, stdout, stderr } = await run(['check', 'fixtures/legacy-server']);
    expect(code).toBe(1);
    expect(stdout).toContain('@mcp-mrtr/no-push-elicitation');
    expect(stderr).toContain(`mcp-mrtr check: ${files} files`);
  });

  it('dry-runs a migration of the sample server without writing anything', async () => {
    const before = readFileSync(path.join(LEGACY_SERVER, 'src/ops-server.ts'), 'utf8');
    const { code, stdout } = await run(['migrate', '--quiet', '.'], LEGACY_SERVER);
    // Manual work remains (the completion notifier, for one), so the dry run exits 1.
    expect(code).toBe(1);
    expect(stdout).toContain('--- a/src/ops-server.ts\n+++ b/src/ops-server.ts\n');
    expect(stdout).toContain('Manual work (');
    expect(readFileSync(path.join(LEGACY_SERVER, 'src/ops-server.ts'), 'utf8')).toBe(before);
  });

  it('skips what repeated --ignore options name', async () => {
    const { stderr } = await run([
      'check',
      '--ignore',
      'test/',
      '--ignore',
      'http.ts',
      'fixtures/legacy-server',
    ]);
    expect(stderr).toContain(`mcp-mrtr check: ${countTypeScript(path.join(LEGACY_SERVER, 'src')) - 1} files`);
  });

  it('prints nothing on stderr with --quiet', async () => {
    const { stderr } = await run(['check', '--quiet', 'packages/core/src']);
    expect(stderr).toBe('');
  });

  it('runs as `npx mcp-mrtr` from the repository root', () => {
    const result = spawnSync('npx', ['--no-install', 'mcp-mrtr', '--version'], {
      cwd: REPO,
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(`${version}\n`);
    expect(result.status).toBe(0);
  });
});
