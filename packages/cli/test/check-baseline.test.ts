import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ESLint } from 'eslint';
import type { Log } from 'sarif';
import { afterEach, describe, expect, it } from 'vitest';
import { REWRITABLE_SERVER, tempProject, type TempProject } from './migrate-project.js';

const require = createRequire(import.meta.url);
const REPO = path.resolve(import.meta.dirname, '../../..');
const ESLINT_BIN = path.join(path.dirname(require.resolve('eslint/package.json')), 'bin/eslint.js');

const PUSH = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' }, { capabilities: { logging: {} } });
export const ask = () => server.server.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });
`;
const SECOND_PUSH = `export const again = () => server.server.elicitInput({ message: 'Again?', requestedSchema: { type: 'object', properties: {} } });\n`;
/** A finding `check` lowers to a warning, which plain eslint (one severity per rule) reports as an error. */
const ROOTS_REQUEST = `import { inputRequired } from '@modelcontextprotocol/server';
export const r = inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
`;
/** What a project using the plugin the ordinary way has. */
const ESLINT_CONFIG = `import mcpMrtr from '@mcp-mrtr/eslint-plugin';\nexport default [...mcpMrtr.configs.recommended];\n`;

let project: TempProject | undefined;
afterEach(() => project?.remove());

function baselineProject(): TempProject {
  project = tempProject({
    'eslint.config.mjs': ESLINT_CONFIG,
    'src/server.ts': PUSH,
    'src/roots.ts': ROOTS_REQUEST,
    'src/clean.ts': 'export const answer = 42;\n',
  });
  return project;
}

/** Plain `eslint`, as the project would run it, with its own config. */
function eslint(dir: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [ESLINT_BIN, ...args, 'src'], { cwd: dir, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function suppressionsOf(p: TempProject, file = 'eslint-suppressions.json'): unknown {
  return JSON.parse(readFileSync(p.file(file), 'utf8'));
}

describe('mcp-mrtr check: baseline with ESLint bulk suppressions', () => {
  it('writes with --suppress-all what plain eslint honours unchanged, and fails on a new finding', async () => {
    const p = baselineProject();
    expect((await p.run(['check', 'src'])).code).toBe(1);
    expect(eslint(p.dir).code).toBe(1);

    const written = await p.run(['check', '--suppress-all', 'src']);
    expect(written.code).toBe(0);
    expect(suppressionsOf(p)).toEqual({
      'src/roots.ts': { '@mcp-mrtr/no-deprecated-roots': { count: 1 } },
      'src/server.ts': {
        '@mcp-mrtr/no-deprecated-logging': { count: 1 },
        '@mcp-mrtr/no-push-elicitation': { count: 1 },
      },
    });
    const bytes = readFileSync(p.file('eslint-suppressions.json'), 'utf8');

    const plain = eslint(p.dir);
    expect(plain.stderr).toBe('');
    expect(plain.stdout).toBe('');
    expect(plain.code).toBe(0);
    expect(readFileSync(p.file('eslint-suppressions.json'), 'utf8')).toBe(bytes);

    const again = await p.run(['check', 'src']);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('\n3 suppressed problems in 2 files not shown (eslint-suppressions.json).\n');
    expect(again.stderr).toContain('baseline eslint-suppressions.json');

    // One more of a suppressed rule in a file: every finding of that rule there is reported again.
    p.write('src/server.ts', PUSH + SECOND_PUSH);
    const above = await p.run(['check', '-f', 'json', 'src']);
    expect(above.code).toBe(1);
    const server = (JSON.parse(above.stdout) as ESLint.LintResult[]).find((r) =>
      r.filePath.endsWith('server.ts'),
    );
    expect(server?.messages.map((m) => `${m.line} ${m.ruleId}`)).toEqual([
      '3 @mcp-mrtr/no-push-elicitation',
      '4 @mcp-mrtr/no-push-elicitation',
    ]);
    expect(server?.suppressedMessages.map((m) => m.ruleId)).toEqual(['@mcp-mrtr/no-deprecated-logging']);
    expect(eslint(p.dir).code).toBe(1);
  }, 240_000);

  it('honours a file written by plain eslint --suppress-all, byte for byte the same file', async () => {
    const p = baselineProject();
    await p.run(['check', '--suppress-all', 'src']);
    const ours = readFileSync(p.file('eslint-suppressions.json'), 'utf8');
    rmSync(p.file('eslint-suppressions.json'));

    expect(eslint(p.dir, '--suppress-all').code).toBe(0);
    expect(readFileSync(p.file('eslint-suppressions.json'), 'utf8')).toBe(ours);
    const { code, stdout, stderr } = await p.run(['check', '-f', 'json', 'src']);
    expect(code).toBe(0);
    expect(stderr).not.toContain('no longer occur');
    const results = JSON.parse(stdout) as ESLint.LintResult[];
    expect(results.flatMap((r) => r.messages)).toEqual([]);
    // JSON keeps ESLint's suppressedMessages; the roots request is still a warning in check's terms.
    expect(
      results.flatMap((r) =>
        r.suppressedMessages.map((m) => `${m.ruleId} ${m.severity} ${m.suppressions[0]?.kind}`),
      ),
    ).toEqual([
      '@mcp-mrtr/no-deprecated-roots 1 file',
      '@mcp-mrtr/no-deprecated-logging 2 file',
      '@mcp-mrtr/no-push-elicitation 2 file',
    ]);
  }, 240_000);

  it('shares the file with eslint on the strict rules too when the ESLint config enables them', async () => {
    const strictFinding = readFileSync(
      path.join(REPO, 'docs/rules/no-side-effects-before-input-required.md'),
      'utf8',
    )
      .split('### ❌ Incorrect\n\n```ts\n')[1]
      ?.split('```')[0];
    project = tempProject({ 'eslint.config.mjs': ESLINT_CONFIG, 'src/checkout.ts': strictFinding ?? '' });
    const p = project;
    expect((await p.run(['check', '--suppress-all', 'src'])).code).toBe(0);
    expect(Object.keys((suppressionsOf(p) as Record<string, object>)['src/checkout.ts'] ?? {})).toEqual([
      '@mcp-mrtr/no-side-effects-before-input-required',
    ]);
    // recommended does not run the strict rule, so eslint calls the entry unused (docs/ci.md says so)…
    expect(eslint(p.dir).stderr).toContain('There are suppressions left that do not occur anymore');
    // …and with the rules check runs, it honours the file unchanged.
    p.write('eslint.config.mjs', ESLINT_CONFIG.replace('configs.recommended', 'configs.all'));
    expect(eslint(p.dir)).toMatchObject({ code: 0, stdout: '', stderr: '' });
  }, 240_000);

  it('marks suppressed findings in SARIF with kind external, keeping their fingerprints', async () => {
    const p = baselineProject();
    const before = JSON.parse((await p.run(['check', '-f', 'sarif', 'src'])).stdout) as Log;
    await p.run(['check', '--suppress-rule', 'no-push-elicitation', 'src']);
    const { code, stdout } = await p.run(['check', '-f', 'sarif', 'src']);
    expect(code).toBe(1);
    const results = (JSON.parse(stdout) as Log).runs[0]?.results ?? [];
    expect(results.map((r) => [r.ruleId, r.suppressions?.map((s) => s.kind)])).toEqual([
      ['@mcp-mrtr/no-deprecated-roots', undefined],
      ['@mcp-mrtr/no-deprecated-logging', undefined],
      ['@mcp-mrtr/no-push-elicitation', ['external']],
    ]);
    expect(results.map((r) => r.partialFingerprints)).toEqual(
      before.runs[0]?.results?.map((r) => r.partialFingerprints),
    );
  });

  it('--suppress-rule writes only the rules named, with or without the plugin prefix', async () => {
    const p = baselineProject();
    const { code } = await p.run([
      'check',
      '--suppress-rule',
      '@mcp-mrtr/no-deprecated-logging',
      '--suppress-rule',
      'no-deprecated-roots',
      'src',
    ]);
    expect(code).toBe(1);
    expect(suppressionsOf(p)).toEqual({
      'src/roots.ts': { '@mcp-mrtr/no-deprecated-roots': { count: 1 } },
      'src/server.ts': { '@mcp-mrtr/no-deprecated-logging': { count: 1 } },
    });
  });

  it('says to prune when a count drops, and --prune-suppressions lowers it (the migration ratchet)', async () => {
    project = tempProject({ 'src/server.ts': REWRITABLE_SERVER, 'src/other.ts': PUSH });
    const p = project;
    await p.run(['check', '--suppress-all', '--suppressions-location', 'baseline.json', 'src']);
    expect(Object.keys(suppressionsOf(p, 'baseline.json') as object)).toEqual([
      'src/other.ts',
      'src/server.ts',
    ]);

    expect((await p.run(['migrate', '--write', '--force', '--quiet', 'src/server.ts'])).code).toBe(0);
    const after = await p.run(['check', '--suppressions-location', 'baseline.json', 'src']);
    expect(after.code).toBe(0);
    expect(after.stderr).toContain('baseline.json tolerates errors that no longer occur:');
    expect(after.stderr).toContain('  src/server.ts: 2 fewer @mcp-mrtr/no-deprecated-logging');
    expect(after.stderr).toContain(
      'Run mcp-mrtr check --prune-suppressions --suppressions-location baseline.json to lower the counts',
    );

    const pruned = await p.run([
      'check',
      '--prune-suppressions',
      '--suppressions-location',
      'baseline.json',
      'src',
    ]);
    expect(pruned.code).toBe(0);
    expect(pruned.stderr).not.toContain('no longer occur');
    expect(Object.keys(suppressionsOf(p, 'baseline.json') as object)).toEqual(['src/other.ts']);
  }, 240_000);

  it("leaves a shared file's entries for the project's other rules alone, and prunes only its own", async () => {
    const p = baselineProject();
    await p.run(['check', '--suppress-all', 'src']);
    // The project's own `eslint --suppress-all` added its rules to the same file; check never runs them.
    const shared = suppressionsOf(p) as Record<string, Record<string, { count: number }>>;
    shared['src/server.ts'] = {
      ...shared['src/server.ts'],
      '@typescript-eslint/no-explicit-any': { count: 2 },
    };
    shared['src/clean.ts'] = { 'no-console': { count: 1 } };
    p.write('eslint-suppressions.json', JSON.stringify(shared, null, 2));

    const checked = await p.run(['check', 'src']);
    expect(checked.code).toBe(0);
    expect(checked.stderr).not.toContain('no longer occur');

    // The logging capability goes; the push elicitation stays.
    p.write('src/server.ts', PUSH.replace(', { capabilities: { logging: {} } }', ''));
    const pruned = await p.run(['check', '--prune-suppressions', 'src']);
    expect(pruned.code).toBe(0);
    expect(suppressionsOf(p)).toEqual({
      'src/clean.ts': { 'no-console': { count: 1 } },
      'src/roots.ts': { '@mcp-mrtr/no-deprecated-roots': { count: 1 } },
      'src/server.ts': {
        '@mcp-mrtr/no-push-elicitation': { count: 1 },
        '@typescript-eslint/no-explicit-any': { count: 2 },
      },
    });
  });

  it.each([
    [
      ['--suppress-all', '--suppress-rule', 'no-push-elicitation'],
      /--suppress-all and --suppress-rule cannot be used together/,
    ],
    [
      ['--suppress-all', '--prune-suppressions'],
      /--suppress-all and --prune-suppressions cannot be used together/,
    ],
    [
      ['--suppress-rule', 'no-such-rule'],
      /--suppress-rule no-such-rule: no such rule; the rules are .*no-push-elicitation/,
    ],
    [
      ['--suppressions-location', 'missing.json'],
      /missing\.json: no such suppressions file; create it with --suppress-all/,
    ],
    [['--prune-suppressions'], /eslint-suppressions\.json: no such suppressions file/],
    [['--suppressions-location', 'src'], /--suppressions-location src: is a directory/],
  ])('exits 2 for %j', async (args, reason) => {
    const p = baselineProject();
    const { code, stdout, stderr } = await p.run(['check', ...args, 'src']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(reason);
  });

  it('exits 2 for a suppressions file that is not JSON, and says what to do', async () => {
    const p = baselineProject();
    p.write('eslint-suppressions.json', '{ not json');
    const { code, stderr } = await p.run(['check', 'src']);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /eslint-suppressions\.json: not a valid suppressions file: .*delete it and run check --suppress-all/,
    );
  });
});
