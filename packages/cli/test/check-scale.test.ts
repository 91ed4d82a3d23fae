import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ESLint } from 'eslint';
import type { Log } from 'sarif';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../src/index.js';
import { tempProject, type TempProject } from './migrate-project.js';

const REPO = path.resolve(import.meta.dirname, '../../..');
const LEGACY_SERVER = path.join(REPO, 'fixtures/legacy-server');
const BIN = path.join(REPO, 'packages/cli/bin/mcp-mrtr.js');

const PUSH = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' }, { capabilities: { logging: {} } });
export const ask = () => server.server.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });
`;

let project: TempProject | undefined;
afterEach(() => project?.remove());

/** Every finding as `file:line:column rule`, independent of how the run was split. */
function findings(stdout: string, root: string): string[] {
  return (JSON.parse(stdout) as ESLint.LintResult[]).flatMap((result) =>
    [...result.messages, ...result.suppressedMessages].map(
      (m) => `${path.relative(root, result.filePath)}:${m.line}:${m.column} ${m.ruleId}`,
    ),
  );
}

function filesOf(stdout: string, root: string): string[] {
  return (JSON.parse(stdout) as ESLint.LintResult[]).map((result) => path.relative(root, result.filePath));
}

/** 23 files across directories, some with findings and some clean. */
function shardProject(): TempProject {
  const files: Record<string, string> = {};
  for (let i = 0; i < 23; i++) {
    files[`src/${['api', 'tools', 'lib'][i % 3]}/file-${i}.ts`] =
      i % 4 === 0 ? 'export const clean = 1;\n' : PUSH.replace('Sure?', `Sure ${i}?`);
  }
  project = tempProject(files);
  return project;
}

async function sharded(p: TempProject, count: number, args: string[] = []) {
  const shards = [];
  for (let index = 1; index <= count; index++) {
    shards.push(await p.run(['check', '--shard', `${index}/${count}`, '-f', 'json', ...args, 'src']));
  }
  return shards;
}

describe('mcp-mrtr check --shard', () => {
  it('splits the files into disjoint, balanced shards whose findings add up to one unsharded run', async () => {
    const p = shardProject();
    const whole = await p.run(['check', '-f', 'json', 'src']);
    for (const count of [1, 3, 4]) {
      const shards = await sharded(p, count);
      const sizes = shards.map((shard) => filesOf(shard.stdout, p.dir).length);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(23);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      const files = shards.flatMap((shard) => filesOf(shard.stdout, p.dir));
      expect(new Set(files).size).toBe(files.length);
      expect(files.sort()).toEqual(filesOf(whole.stdout, p.dir).sort());
      expect(shards.flatMap((shard) => findings(shard.stdout, p.dir)).sort()).toEqual(
        findings(whole.stdout, p.dir).sort(),
      );
      // Each shard fails on its own findings only.
      for (const shard of shards) {
        expect(shard.code).toBe(findings(shard.stdout, p.dir).length > 0 ? 1 : 0);
      }
    }
    // Deterministic: the same split every time, and it spreads directories over the shards.
    const again = await sharded(p, 3);
    const first = await sharded(p, 3);
    expect(again.map((s) => s.stdout)).toEqual(first.map((s) => s.stdout));
    expect(
      new Set(filesOf(first[0]?.stdout ?? '[]', p.dir).map((f) => path.dirname(f))).size,
    ).toBeGreaterThan(1);
  });

  it('moves at most one file across each boundary when a file is added', async () => {
    const p = shardProject();
    const before = (await sharded(p, 4)).map((s) => filesOf(s.stdout, p.dir));
    p.write('src/api/new.ts', 'export const added = 1;\n');
    const after = (await sharded(p, 4)).map((s) => filesOf(s.stdout, p.dir));
    const moved = before
      .flat()
      .filter((file) => !after[before.findIndex((s) => s.includes(file))]?.includes(file));
    expect(moved.length).toBeLessThanOrEqual(3);
  });

  it('gives each shard its own SARIF automationDetails.id, so code scanning keeps a category per shard', async () => {
    const p = shardProject();
    const ids = [];
    for (const index of [1, 2]) {
      const { stdout } = await p.run(['check', '--shard', `${index}/2`, '-f', 'sarif', 'src']);
      ids.push((JSON.parse(stdout) as Log).runs[0]?.automationDetails?.id);
    }
    expect(ids).toEqual(['mcp-mrtr/shard-1-of-2/', 'mcp-mrtr/shard-2-of-2/']);
    const unsharded = JSON.parse((await p.run(['check', '-f', 'sarif', 'src'])).stdout) as Log;
    expect(unsharded.runs[0]?.automationDetails).toBeUndefined();
  });

  it.each(['0/3', '4/3', '1/0', 'two/3', '1'])('exits 2 for --shard %s', async (shard) => {
    const p = shardProject();
    const { code, stderr } = await p.run(['check', '--shard', shard, 'src']);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `option '--shard <index/count>' argument '${shard}' is invalid. give <index>/<count>`,
    );
  });
});

/**
 * ESLint's worker threads import the built options module with Node's own loader, which in this test
 * process would take the workspace's TypeScript sources (vitest's resolve conditions): run the
 * built CLI as a child process, the way users run it. Timeouts are generous; nothing is timed.
 */
function runBuilt(dir: string, args: string[]) {
  const child = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8' });
  return { code: child.status, stdout: child.stdout, stderr: child.stderr };
}

describe('mcp-mrtr check --concurrency', () => {
  it.each([['2'], ['auto']])(
    'finds with --concurrency %s what one thread finds',
    (concurrency) => {
      const off = runBuilt(LEGACY_SERVER, ['check', '-f', 'json', '--concurrency', 'off', '.']);
      const threads = runBuilt(LEGACY_SERVER, ['check', '-f', 'json', '--concurrency', concurrency, '.']);
      expect(threads.stderr).not.toContain('internal error');
      expect(threads.code).toBe(1);
      expect(off.code).toBe(1);
      expect(findings(threads.stdout, LEGACY_SERVER)).toEqual(findings(off.stdout, LEGACY_SERVER));
      expect(findings(off.stdout, LEGACY_SERVER).length).toBeGreaterThanOrEqual(28);
    },
    240_000,
  );

  it('works with --type-aware: each worker thread builds its own TypeScript program', () => {
    const args = ['check', '--type-aware', '-f', 'json', 'src'];
    const threads = runBuilt(LEGACY_SERVER, [...args, '--concurrency', '2']);
    const single = runBuilt(LEGACY_SERVER, args);
    expect(threads.code).toBe(1);
    expect(findings(threads.stdout, LEGACY_SERVER)).toEqual(findings(single.stdout, LEGACY_SERVER));
    expect(findings(single.stdout, LEGACY_SERVER)).toHaveLength(28);
  }, 240_000);

  it.each(['0', '-1', 'many', '1.5'])('exits 2 for --concurrency %s', async (value) => {
    const { code, stderr } = await runIn(LEGACY_SERVER, ['check', '--concurrency', value, 'src']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/give a number of worker threads, auto or off/);
  });
});

async function runIn(dir: string, args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    cwd: dir,
    env: {},
  });
  return { code, stdout, stderr };
}

describe('mcp-mrtr check --cache', () => {
  it("keeps ESLint's content-based cache and reports edits, not stale results", async () => {
    project = tempProject({ 'src/a.ts': PUSH, 'src/b.ts': 'export const b = 1;\n' });
    const p = project;
    const args = ['check', '--cache', '--cache-location', '.cache/check', '-f', 'json', 'src'];
    const cold = await p.run(args);
    expect(cold.code).toBe(1);
    const cache = readFileSync(p.file('.cache/check'), 'utf8');
    expect(cache).toContain(p.file('src/a.ts'));
    expect(cache).toContain(p.file('src/b.ts'));

    const warm = await p.run(args);
    expect(findings(warm.stdout, p.dir)).toEqual(findings(cold.stdout, p.dir));

    p.write('src/a.ts', 'export const a = 1;\n');
    p.write('src/b.ts', PUSH);
    const edited = await p.run(args);
    expect(findings(edited.stdout, p.dir)).toEqual(
      findings(cold.stdout, p.dir).map((finding) => finding.replace('src/a.ts', 'src/b.ts')),
    );
  });

  it('keeps the cache under node_modules/.cache by default', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mcp-mrtr-cache-'));
    try {
      writeFileSync(path.join(dir, 'a.ts'), PUSH);
      expect((await runIn(dir, ['check', '--cache', '.'])).code).toBe(1);
      expect(existsSync(path.join(dir, 'node_modules/.cache/mcp-mrtr/eslintcache'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [
      ['--cache', '--type-aware'],
      /--cache cannot be combined with --type-aware: .*type information comes from other files/,
    ],
    [['--cache-location', 'x'], /--cache-location needs --cache/],
  ])('exits 2 for %j', async (args, reason) => {
    project = tempProject({ 'src/a.ts': PUSH });
    const { code, stdout, stderr } = await project.run(['check', ...args, 'src']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(reason);
  });
});
