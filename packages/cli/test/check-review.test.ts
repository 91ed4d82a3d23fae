import { renameSync } from 'node:fs';
import path from 'node:path';
import type { ESLint } from 'eslint';
import { afterEach, describe, expect, it } from 'vitest';
import { tempProject, type TempProject } from './migrate-project.js';

const PUSH = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
export const ask = () => server.server.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });
`;
const CLEAN = 'export const answer = 42;\n';

let project: TempProject | undefined;
afterEach(() => project?.remove());

function checkedFiles(stdout: string, dir: string): string[] {
  return (JSON.parse(stdout) as ESLint.LintResult[]).map((r) => path.relative(dir, r.filePath));
}

/**
 * main: base.ts, renamed.ts, later.ts. feature (from main): modifies edited.ts, renames renamed.ts,
 * stages staged.ts, leaves untracked.ts and an ignored file. main then moves on (later.ts changes),
 * which the merge base must leave out.
 */
function reviewRepository(): TempProject {
  project = tempProject(
    {
      'src/base.ts': PUSH,
      'src/edited.ts': CLEAN,
      'src/renamed.ts': PUSH,
      'src/later.ts': CLEAN,
    },
    { git: true },
  );
  const p = project;
  p.git('branch', '-M', 'main');
  p.git('branch', 'feature');
  p.write('src/later.ts', PUSH);
  p.git('commit', '--quiet', '-am', 'main moves on');
  p.git('checkout', '--quiet', 'feature');
  p.write('src/edited.ts', PUSH);
  p.git('commit', '--quiet', '-am', 'edit');
  p.git('mv', 'src/renamed.ts', 'src/moved.ts');
  p.git('commit', '--quiet', '-m', 'rename');
  p.write('src/staged.ts', PUSH);
  p.git('add', 'src/staged.ts');
  p.write('src/untracked.ts', PUSH);
  p.write('.gitignore', 'node_modules\nsrc/generated.ts\n');
  p.write('src/generated.ts', PUSH);
  return p;
}

describe('mcp-mrtr check --changed-since', () => {
  it('checks what changed since the merge base: edited, renamed, staged and untracked files', async () => {
    const p = reviewRepository();
    const { code, stdout, stderr } = await p.run(['check', '--changed-since', 'main', '-f', 'json', 'src']);
    expect(code).toBe(1);
    expect(checkedFiles(stdout, p.dir)).toEqual([
      'src/edited.ts',
      'src/moved.ts',
      'src/staged.ts',
      'src/untracked.ts',
    ]);
    const mergeBase = p.git('merge-base', 'main', 'HEAD').trim().slice(0, 12);
    expect(stderr).toContain(`mcp-mrtr check: 6 files, 4 changed since main (merge base ${mergeBase})`);
  });

  it('computes the exit code on the changed files alone', async () => {
    project = tempProject({ 'src/old.ts': PUSH, 'src/clean.ts': CLEAN }, { git: true });
    const p = project;
    p.git('tag', 'base');
    p.write('src/clean.ts', `${CLEAN}export const more = 1;\n`);
    const clean = await p.run(['check', '--changed-since', 'base', '.']);
    expect(clean.code).toBe(0);
    expect(clean.stderr).toContain('no problems in 1 file');
    expect((await p.run(['check', '.'])).code).toBe(1);

    // An explicit path that did not change is not checked either.
    const explicit = await p.run(['check', '--changed-since', 'base', '-f', 'json', 'src/old.ts']);
    expect(explicit.code).toBe(0);
    expect(JSON.parse(explicit.stdout)).toEqual([]);
  });

  it('works from a subdirectory of the repository', async () => {
    const p = reviewRepository();
    renameSync(p.file('src/untracked.ts'), p.file('src/untracked-2.ts'));
    const { stdout } = await p.run(['check', '--changed-since', 'main', '-f', 'json', '.']);
    expect(checkedFiles(stdout, p.dir)).toContain('src/untracked-2.ts');
  });

  it('is a usage error outside a git repository', async () => {
    project = tempProject({ 'src/a.ts': PUSH });
    const { code, stdout, stderr } = await project.run(['check', '--changed-since', 'main', 'src']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /^mcp-mrtr: --changed-since main: .* is not in a git repository \(fatal: not a git repository.*\); run check there without --changed-since$/m,
    );
  });

  it('is a usage error for a ref git cannot find, and says how to fetch it', async () => {
    project = tempProject({ 'src/a.ts': PUSH }, { git: true });
    const { code, stderr } = await project.run(['check', '--changed-since', 'origin/main', 'src']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--changed-since origin\/main: git knows no commit origin\/main/);
    expect(stderr).toContain('fetch-depth: 0');
  });

  it.each([
    // git would read these as its own options: --independent made merge-base print HEAD itself.
    ['--independent'],
    ['--all'],
    // Refs that name something other than a commit.
    ['HEAD^{tree}'],
    ['HEAD:src/a.ts'],
  ])('is a usage error, naming the ref, for --changed-since=%s', async (ref) => {
    project = tempProject({ 'src/a.ts': PUSH }, { git: true });
    const { code, stdout, stderr } = await project.run(['check', `--changed-since=${ref}`, 'src']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`mcp-mrtr: --changed-since ${ref}: git knows no commit ${ref}`);
  });
});

describe('mcp-mrtr check --format github', () => {
  it('prints one workflow command per finding, warnings as ::warning, escaped per GitHub', async () => {
    project = tempProject({
      'src/we%ird,name:1.ts': PUSH,
      'src/roots.ts': `import { inputRequired } from '@modelcontextprotocol/server';\nexport const r = inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });\n`,
      'src/broken.ts': 'export const = ;\n',
    });
    const { code, stdout } = await project.run(['check', '-f', 'github', 'src']);
    expect(code).toBe(1);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^::error file=src\/broken\.ts,line=1,col=\d+,title=mcp-mrtr%3A file could not be checked::Parsing error: /,
    );
    expect(lines[1]).toMatch(
      /^::warning file=src\/roots\.ts,line=2,endLine=2,col=\d+,endColumn=\d+,title=@mcp-mrtr\/no-deprecated-roots::.+%0ASee https:\/\/\S+\/docs\/rules\/no-deprecated-roots\.md$/,
    );
    expect(lines[2]).toMatch(
      /^::error file=src\/we%25ird%2Cname%3A1\.ts,line=3,endLine=3,col=\d+,endColumn=\d+,title=@mcp-mrtr\/no-push-elicitation::server\.server\.elicitInput\(\) sends/,
    );
    // Data may keep ':' and ',' but never a raw newline, which would end the command.
    expect(stdout.split('\n').filter((line) => line !== '' && !line.startsWith('::'))).toEqual([]);
  });

  it('prints nothing when there is nothing to annotate', async () => {
    project = tempProject({ 'src/a.ts': CLEAN });
    const { code, stdout } = await project.run(['check', '-f', 'github', 'src']);
    expect(code).toBe(0);
    expect(stdout).toBe('');
  });
});
