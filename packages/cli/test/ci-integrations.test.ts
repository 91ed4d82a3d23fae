import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Log } from 'sarif';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { tempProject, type TempProject } from './migrate-project.js';

const REPO = path.resolve(import.meta.dirname, '../../..');

const PUSH = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
export const ask = () => server.server.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });
`;
const CLEAN = 'export const answer = 42;\n';

interface ActionStep {
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface Action {
  inputs: Record<string, { default: string }>;
  runs: { using: string; steps: ActionStep[] };
}

const action = parse(readFileSync(path.join(REPO, 'action.yml'), 'utf8')) as Action;

let project: TempProject | undefined;
afterEach(() => project?.remove());

/**
 * Runs the composite action's shell steps the way the runner does: `bash -e` on each `run:` script,
 * its `env:` expressions evaluated against the inputs (defaults from action.yml), and step outputs
 * read back from $GITHUB_OUTPUT. `uses:` steps are returned, with their `with:` evaluated, not run.
 */
function runAction(dir: string, given: Record<string, string>) {
  const inputs = Object.fromEntries(
    Object.entries(action.inputs).map(([name, input]) => [name, given[name] ?? String(input.default)]),
  );
  const outputs: Record<string, string> = {};
  const evaluate = (text: string) =>
    text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_, expression: string) => {
      if (expression === 'github.action_path') return REPO;
      if (expression.startsWith('inputs.')) return inputs[expression.slice('inputs.'.length)] ?? '';
      if (expression.startsWith('steps.check.outputs.')) return outputs[expression.split('.')[3] ?? ''] ?? '';
      throw new Error(`unexpected expression ${expression}`);
    });
  const logs: string[] = [];
  const uses: { uses: string; with: Record<string, string> }[] = [];
  let exitCode = 0;
  for (const step of action.runs.steps) {
    if (step.uses !== undefined) {
      // The one `uses:` step is the SARIF upload, under this condition.
      expect(step.if).toBe("inputs.upload-sarif == 'true' && steps.check.outputs.sarif-file != ''");
      if (inputs['upload-sarif'] === 'true' && (outputs['sarif-file'] ?? '') !== '') {
        uses.push({
          uses: step.uses,
          with: Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, evaluate(v)])),
        });
      }
      continue;
    }
    const outputFile = path.join(dir, '.github-output');
    writeFileSync(outputFile, '');
    expect(step.shell).toBe('bash');
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, evaluate(v)]));
    // The runner's bash invocation for `shell: bash`.
    const child = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run ?? ''], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: process.env.HOME, GITHUB_OUTPUT: outputFile, ...env },
    });
    logs.push(child.stdout, child.stderr);
    for (const line of readFileSync(outputFile, 'utf8').split('\n')) {
      const [name, ...value] = line.split('=');
      if (name) outputs[name] = value.join('=');
    }
    exitCode = child.status ?? -1;
    if (exitCode !== 0) break;
  }
  return { exitCode, outputs, log: logs.join(''), uses };
}

describe('action.yml', () => {
  it('is a composite action with the inputs the docs name', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(
      expect.arrayContaining([
        'paths',
        'format',
        'changed-since',
        'type-aware',
        'suppressions-file',
        'upload-sarif',
      ]),
    );
    const ciDoc = readFileSync(path.join(REPO, 'docs/ci.md'), 'utf8');
    for (const input of Object.keys(action.inputs)) expect(ciDoc, input).toContain(`\`${input}\``);
  });

  it('annotates findings with workflow commands and fails the job with exit code 1', () => {
    project = tempProject({ 'src/a.ts': PUSH, 'src/b.ts': CLEAN }, { git: true });
    const { exitCode, outputs, log, uses } = runAction(project.dir, { paths: 'src' });
    expect(outputs['exit-code']).toBe('1');
    expect(exitCode).toBe(1);
    expect(log).toMatch(/^::error file=src\/a\.ts,line=3,.*title=@mcp-mrtr\/no-push-elicitation::/m);
    expect(uses).toEqual([]);
  }, 240_000);

  it('checks only the changed files, with the baseline, type-aware, and uploads SARIF', async () => {
    project = tempProject({ 'src/old.ts': PUSH, 'src/kept.ts': PUSH }, { git: true });
    const p = project;
    p.git('branch', '-M', 'main');
    p.git('checkout', '--quiet', '-b', 'feature');
    p.write('src/kept.ts', `${PUSH}// touched\n`);
    p.write('src/new.ts', CLEAN);
    const clean = runAction(p.dir, {
      paths: 'src\nsrc/*.ts',
      'changed-since': 'main',
      'type-aware': 'true',
      'suppressions-file': 'baseline.json',
      'upload-sarif': 'true',
    });
    // The baseline does not exist yet: a usage error, and nothing to upload.
    expect(clean.log).toContain('baseline.json: no such suppressions file');
    expect(clean.exitCode).toBe(2);
    expect(clean.uses).toEqual([]);

    await p.run(['check', '--suppress-all', '--suppressions-location', 'baseline.json', 'src']);
    const run = runAction(p.dir, {
      paths: 'src\nsrc/*.ts',
      'changed-since': 'main',
      'type-aware': 'true',
      'suppressions-file': 'baseline.json',
      'upload-sarif': 'true',
    });
    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ 'exit-code': '0', 'sarif-file': 'mcp-mrtr.sarif' });
    const sarif = JSON.parse(readFileSync(p.file('mcp-mrtr.sarif'), 'utf8')) as Log;
    const results = sarif.runs[0]?.results ?? [];
    expect(
      results.map((r) => [
        r.locations?.[0]?.physicalLocation?.artifactLocation?.uri,
        r.suppressions?.[0]?.kind,
      ]),
    ).toEqual([['src/kept.ts', 'external']]);
    expect(run.uses).toEqual([
      {
        uses: 'github/codeql-action/upload-sarif@v3',
        with: { sarif_file: 'mcp-mrtr.sarif', category: 'mcp-mrtr' },
      },
    ]);
    expect(run.log).not.toContain('::error');
  }, 240_000);

  it('passes the shard to check and refuses bad boolean inputs with exit code 2', () => {
    project = tempProject({ 'src/a.ts': PUSH, 'src/b.ts': PUSH }, { git: true });
    const shards = ['1/2', '2/2'].map((shard) =>
      runAction(project?.dir ?? '', { paths: 'src', shard, format: 'json' }),
    );
    const files = shards.map((s) =>
      (JSON.parse(s.log.slice(s.log.indexOf('['), s.log.lastIndexOf(']') + 1)) as { filePath: string }[]).map(
        (r) => path.basename(r.filePath),
      ),
    );
    expect(files.flat().sort()).toEqual(['a.ts', 'b.ts']);

    const bad = runAction(project.dir, { 'type-aware': 'yes' });
    expect(bad.exitCode).toBe(2);
    expect(bad.log).toContain("::error title=mcp-mrtr action::type-aware must be true or false, not 'yes'");
  }, 240_000);
});

describe('.pre-commit-hooks.yaml', () => {
  interface Hook {
    id: string;
    entry: string;
    files: string;
    exclude: string;
    pass_filenames: boolean;
  }
  const [hook] = parse(readFileSync(path.join(REPO, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];

  /** What pre-commit does for this hook: the staged files its patterns select, appended to `entry`. */
  function runHook(p: TempProject) {
    const staged = p.git('diff', '--cached', '--name-only', '--diff-filter=d').split('\n').filter(Boolean);
    const selected = staged.filter(
      (f) => new RegExp(hook?.files ?? '$^').test(f) && !new RegExp(hook?.exclude ?? '$^').test(f),
    );
    const [command = '', ...args] = (hook?.entry ?? '').split(' ');
    const child = spawnSync(command, [...args, ...selected], { cwd: p.dir, encoding: 'utf8' });
    return { code: child.status, output: child.stdout + child.stderr, selected };
  }

  it('checks the staged source files only, and fails the commit on a finding', () => {
    expect(hook?.id).toBe('mcp-mrtr-check');
    expect(hook?.pass_filenames).toBe(true);
    project = tempProject({ 'src/ok.ts': CLEAN }, { git: true });
    const p = project;
    p.write('src/new.ts', PUSH);
    p.write('src/types.d.ts', 'export declare const x: number;\n');
    p.write('README.md', '# readme\n');
    p.write('src/unstaged.ts', PUSH);
    p.git('add', 'src/new.ts', 'src/types.d.ts', 'README.md');
    const failing = runHook(p);
    expect(failing.selected).toEqual(['src/new.ts']);
    expect(failing.code).toBe(1);
    expect(failing.output).toContain('no-push-elicitation');
    expect(failing.output).not.toContain('unstaged.ts');

    p.write('src/new.ts', CLEAN);
    p.git('add', 'src/new.ts');
    expect(runHook(p).code).toBe(0);
    expect(existsSync(p.file('src/unstaged.ts'))).toBe(true);
  }, 240_000);
});
