import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverFiles, MAX_SOURCE_BYTES, SOURCE_EXTENSIONS, UsageError } from '../src/index.js';

let root: string;

function write(relative: string, content = ''): void {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'mcp-mrtr-discover-'));
  mkdirSync(path.join(root, '.git'));
  for (const ext of SOURCE_EXTENSIONS) write(`src/server${ext}`);
  write('src/types.d.ts');
  write('src/notes.md');
  write('src/data.json');
  write('src/nested/deep/handler.ts');
  write('node_modules/some-sdk/index.js');
  write('packages/app/node_modules/dep/index.ts');
  write('dist/server.js');
  write('build/server.js');
  write('coverage/lcov.js');
  write('.gitignore', 'generated/\n*.log.ts\n');
  write('generated/client.ts');
  write('src/debug.log.ts');
  write('src/legacy/.gitignore', '*.gen.ts\n!keep.gen.ts\n');
  write('src/legacy/a.gen.ts');
  write('src/legacy/keep.gen.ts');
  write('empty/README.md');
  write('.yarn/releases/yarn-4.9.1.cjs');
  write('bundles/run.js', 'x'.repeat(MAX_SOURCE_BYTES + 1));
  write('bundles/at-limit.js', 'x'.repeat(MAX_SOURCE_BYTES));
  // Reading either never ends: a FIFO waits for a writer, a device streams forever.
  execFileSync('mkfifo', [path.join(root, 'src/pipe.ts')]);
  symlinkSync('/dev/zero', path.join(root, 'src/zero.ts'));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const relative = (files: readonly string[]) =>
  files.map((file) => path.relative(root, file).split(path.sep).join('/'));

describe('discoverFiles', () => {
  it('walks the current directory by default, skipping dependencies, build output and ignored files', async () => {
    const { files } = await discoverFiles({ patterns: [], cwd: root });
    expect(relative(files)).toEqual([
      'bundles/at-limit.js',
      'src/legacy/keep.gen.ts',
      'src/nested/deep/handler.ts',
      'src/server.cjs',
      'src/server.cts',
      'src/server.js',
      'src/server.jsx',
      'src/server.mjs',
      'src/server.mts',
      'src/server.ts',
      'src/server.tsx',
    ]);
  });

  it('skips named files that directory discovery would skip, and says why', async () => {
    const named = [
      'src/server.ts',
      'src/types.d.ts',
      'src/notes.md',
      'node_modules/some-sdk/index.js',
      'dist/server.js',
      'generated/client.ts',
      'src/pipe.ts',
      'src/zero.ts',
    ];
    const { files, skipped } = await discoverFiles({ patterns: named, cwd: root });
    expect(relative(files)).toEqual(['src/server.ts']);
    expect(skipped.map(({ file, reason }) => [relative([file])[0], reason])).toEqual([
      ['src/types.d.ts', 'declaration file'],
      ['src/notes.md', 'not a source file'],
      ['node_modules/some-sdk/index.js', 'dependency or build output'],
      ['dist/server.js', 'dependency or build output'],
      ['generated/client.ts', 'ignored'],
      ['src/pipe.ts', 'not a regular file'],
      ['src/zero.ts', 'not a regular file'],
    ]);
  });

  it('leaves out files larger than 1 MiB, walked or named, and lists the walked ones', async () => {
    const walked = await discoverFiles({ patterns: ['bundles'], cwd: root });
    expect(relative(walked.files)).toEqual(['bundles/at-limit.js']);
    expect(relative(walked.large)).toEqual(['bundles/run.js']);
    const named = await discoverFiles({ patterns: ['bundles/run.js', 'bundles/at-limit.js'], cwd: root });
    expect(relative(named.files)).toEqual(['bundles/at-limit.js']);
    expect(named.skipped.map(({ file, reason }) => [relative([file])[0], reason])).toEqual([
      ['bundles/run.js', 'larger than 1 MiB'],
    ]);
  });

  it('judges build output by the path below the working directory, not above it', async () => {
    const { files, skipped } = await discoverFiles({ patterns: ['server.js'], cwd: path.join(root, 'dist') });
    expect(relative(files)).toEqual(['dist/server.js']);
    expect(skipped).toEqual([]);
  });

  it('expands globs relative to the working directory and removes duplicates', async () => {
    const { files } = await discoverFiles({
      patterns: ['src/*.ts', 'src/server.ts', '**/handler.ts'],
      cwd: root,
    });
    expect(relative(files)).toEqual(['src/nested/deep/handler.ts', 'src/server.ts']);
  });

  it('applies --ignore patterns to walked and named files alike', async () => {
    const { files } = await discoverFiles({
      patterns: ['src', 'src/server.ts'],
      cwd: root,
      ignore: ['nested/', 'src/server.*'],
    });
    expect(relative(files)).toEqual(['src/legacy/keep.gen.ts']);
  });

  it('resolves paths from a sub-directory and still honours the repository .gitignore', async () => {
    const { files } = await discoverFiles({ patterns: ['.'], cwd: path.join(root, 'src') });
    expect(relative(files)).not.toContain('src/debug.log.ts');
    expect(relative(files)).toContain('src/legacy/keep.gen.ts');
  });

  it('reports directories without source files', async () => {
    const result = await discoverFiles({ patterns: ['empty', 'src/server.ts'], cwd: root });
    expect(relative(result.files)).toEqual(['src/server.ts']);
    expect(relative(result.emptyDirectories)).toEqual(['empty']);
  });

  it.each([
    [['missing'], 'missing: no such file or directory'],
    [['src/**/*.vue'], 'src/**/*.vue: no source files match this pattern'],
  ])('rejects %j with a usage error', async (patterns, message) => {
    const attempt = discoverFiles({ patterns, cwd: root });
    await expect(attempt).rejects.toBeInstanceOf(UsageError);
    await expect(attempt).rejects.toThrow(message);
  });
});
