import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manualSites, planMigration, writeChanges } from '@mcp-mrtr/codemod';
import { CASES_DIR } from './fixture-cases.js';

// Each test plans a TypeScript program of its own: slow on a loaded machine.
const TIMEOUT = 120_000;

// Rewrites that span files (issue 10): what the run may not write stays manual or noted, and the
// files of one cross-file rewrite are written all or none. The golden cases show the full runs.

const REPO = path.resolve(import.meta.dirname, '../../..');
const HELPER_CASE = path.join(CASES_DIR, 'mrtr-cross-file-helper', 'before');
const SERVER_CASE = path.join(CASES_DIR, 'mrtr-v2-server-elsewhere', 'before');
/** The package.json of the package the golden cases belong to: private, it publishes nothing. */
const CASES_PACKAGE = path.join(REPO, 'fixtures/codemod/package.json');

describe('a rewrite that needs a file the run does not include', () => {
  it(
    'leaves an exported helper manual when a file calling it is outside the run',
    async () => {
      const result = await planMigration({ files: [path.join(HELPER_CASE, 'confirm.ts')], cwd: HELPER_CASE });

      expect(result.files.map((file) => file.status)).toEqual(['changed']);
      expect(manualSites(result).map((site) => [site.ruleId, site.reason])).toEqual([
        [
          'no-push-elicitation',
          expect.stringMatching(
            /^it runs in confirm\(\), which is exported: it is called at tools\.ts:10, which this run does not include/,
          ),
        ],
      ]);
    },
    TIMEOUT,
  );

  it(
    'keeps the server-options note when the module creating the SDK v2 server is outside the run',
    async () => {
      const result = await planMigration({ files: [path.join(SERVER_CASE, 'tools.ts')], cwd: SERVER_CASE });
      const [tools] = result.files;

      expect(tools?.status).toBe('changed');
      expect(tools?.output).toContain('the server `server` is created in server.ts:4');
      expect(tools?.output).toContain('const mrtr = new SdkV2Adapter(');
      expect(readFileSync(path.join(SERVER_CASE, 'server.ts'), 'utf8')).not.toContain('serverOptions');
    },
    TIMEOUT,
  );
});

describe('writing a cross-file rewrite', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-mrtr-cross-file-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'writes neither file when one of them cannot be written',
    async () => {
      symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
      for (const file of ['confirm.ts', 'tools.ts'])
        cpSync(path.join(HELPER_CASE, file), path.join(dir, file));
      writeFileSync(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({ extends: path.join(REPO, 'fixtures/codemod/tsconfig.json'), include: ['.'] }),
      );
      // The case's package, which publishes nothing, so no caller outside it is presumed.
      cpSync(CASES_PACKAGE, path.join(dir, 'package.json'));
      const files = ['confirm.ts', 'tools.ts'].map((file) => path.join(dir, file));
      const planned = await planMigration({ files, cwd: dir });
      expect(planned.files.map((file) => file.status)).toEqual(['changed', 'changed']);

      chmodSync(path.join(dir, 'tools.ts'), 0o444);
      const written = await writeChanges(planned, undefined, dir);

      expect(written.files.map((file) => [path.basename(file.file), file.status, file.reason])).toEqual([
        [
          'confirm.ts',
          'failed',
          expect.stringMatching(
            /^left unchanged with tools\.ts, whose part of the same cross-file rewrite failed \(the file is read-only/,
          ),
        ],
        ['tools.ts', 'failed', expect.stringMatching(/^the file is read-only/)],
      ]);
      for (const file of ['confirm.ts', 'tools.ts'])
        expect(readFileSync(path.join(dir, file), 'utf8')).toBe(
          readFileSync(path.join(HELPER_CASE, file), 'utf8'),
        );
    },
    TIMEOUT,
  );
});

/**
 * The helper case in a directory of its own, the caller under `callerName`, planned: both files
 * change. Failures below come while writing, after every file passed the checks before it.
 */
async function plannedHelperCase(callerName: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-mrtr-cross-file-'));
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  cpSync(path.join(HELPER_CASE, 'confirm.ts'), path.join(dir, 'confirm.ts'));
  cpSync(path.join(HELPER_CASE, 'tools.ts'), path.join(dir, callerName));
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ extends: path.join(REPO, 'fixtures/codemod/tsconfig.json'), include: ['.'] }),
  );
  cpSync(CASES_PACKAGE, path.join(dir, 'package.json'));
  // The helper first: a writer that goes file by file has written it when the caller fails.
  const files = [path.join(dir, 'confirm.ts'), path.join(dir, callerName)];
  const planned = await planMigration({ files, cwd: dir });
  expect(planned.files.map((file) => file.status)).toEqual(['changed', 'changed']);
  const unchanged = () => {
    expect(readFileSync(files[0]!, 'utf8')).toBe(readFileSync(path.join(HELPER_CASE, 'confirm.ts'), 'utf8'));
    expect(readFileSync(files[1]!, 'utf8')).toBe(readFileSync(path.join(HELPER_CASE, 'tools.ts'), 'utf8'));
    // No temporary file is left beside them.
    expect(readdirSync(dir).sort()).toEqual(
      [callerName, 'confirm.ts', 'node_modules', 'package.json', 'tsconfig.json'].sort(),
    );
  };
  return { dir, planned, unchanged };
}

/** Whether this process may mark files immutable (root with CAP_LINUX_IMMUTABLE, on ext4 or the like). */
function canMakeImmutable(): boolean {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-mrtr-chattr-'));
  const file = path.join(dir, 'probe');
  writeFileSync(file, '');
  const set = spawnSync('chattr', ['+i', file]).status === 0;
  if (set) spawnSync('chattr', ['-i', file]);
  rmSync(dir, { recursive: true, force: true });
  return set;
}

describe('a cross-file rewrite whose writing fails part way', () => {
  it(
    'writes neither file when the second cannot be staged (a name at the 255-byte limit leaves no room for a temporary name)',
    async () => {
      // The reported failure is a directory that is not writable; root writes there regardless. A
      // file name at the file system's limit fails the same way for root too: the staged copy
      // beside the file needs a longer name, so creating it fails with ENAMETOOLONG.
      const caller = `tools-${'x'.repeat(246)}.ts`;
      const { dir, planned, unchanged } = await plannedHelperCase(caller);
      try {
        const written = await writeChanges(planned, undefined, dir);
        expect(written.files.map((file) => [path.basename(file.file), file.status, file.reason])).toEqual([
          [
            'confirm.ts',
            'failed',
            expect.stringMatching(
              new RegExp(
                `^left unchanged with ${caller}, whose part of the same cross-file rewrite failed \\(could not write the file: ENAMETOOLONG`,
              ),
            ),
          ],
          [caller, 'failed', expect.stringMatching(/^could not write the file: ENAMETOOLONG/)],
        ]);
        unchanged();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    TIMEOUT,
  );

  it.runIf(canMakeImmutable())(
    'puts the first file back when the rename over the second fails (an immutable file)',
    async () => {
      // chattr +i: the file reads as usual and its directory takes new files, but nothing, root
      // included, may replace it, so its rename comes after the helper's has already happened.
      const { dir, planned, unchanged } = await plannedHelperCase('tools.ts');
      const caller = path.join(dir, 'tools.ts');
      expect(spawnSync('chattr', ['+i', caller]).status).toBe(0);
      try {
        const written = await writeChanges(planned, undefined, dir);
        expect(written.files.map((file) => [path.basename(file.file), file.status, file.reason])).toEqual([
          [
            'confirm.ts',
            'failed',
            expect.stringMatching(
              /^left unchanged with tools\.ts, whose part of the same cross-file rewrite failed \(could not write the file: EPERM/,
            ),
          ],
          ['tools.ts', 'failed', expect.stringMatching(/^could not write the file: EPERM/)],
        ]);
        unchanged();
      } finally {
        spawnSync('chattr', ['-i', caller]);
        rmSync(dir, { recursive: true, force: true });
      }
    },
    TIMEOUT,
  );
});
