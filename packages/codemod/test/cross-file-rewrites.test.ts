import { chmodSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
