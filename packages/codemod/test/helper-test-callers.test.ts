import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { manualSites, planMigration } from '@mcp-mrtr/codemod';
import type { Round } from '@mcp-mrtr/runtime';
import { pushRound } from '@mcp-mrtr/runtime/testing';
import { CASES_DIR } from './fixture-cases.js';

// Plans a TypeScript program of its own: slow on a loaded machine.
const TIMEOUT = 120_000;

// Issue 24: a helper the project's own tests call directly, with a scripted server, takes the round
// like any other; each test passes pushRound(server) from the runtime's test kit, linked to the
// helper's rewrite. A helper asking through a push API the kit does not answer through stays
// manual, its reason naming the test.

describe("a helper the project's tests call", () => {
  it(
    'has each test pass pushRound(server), or says why the test cannot',
    async () => {
      const dir = path.join(CASES_DIR, 'mrtr-helper-tests', 'before');
      const result = await planMigration({
        files: ['questions.ts', 'server.ts', 'test/questions.test.ts'].map((file) => path.join(dir, file)),
        cwd: dir,
      });
      const sites = result.files
        .flatMap((file) => file.sites)
        .filter((site) => site.transform === 'mrtr-handlers');
      const tests = sites.filter((site) => site.kind === 'test-caller');
      expect(tests.map((site) => [site.line, site.rewrite !== undefined])).toEqual([
        [17, true],
        [22, true],
      ]);
      expect(tests.every((site) => site.link?.requires.length === 1)).toBe(true);
      expect(
        manualSites(result)
          .filter((site) => site.transform === 'mrtr-handlers' && site.category === 'roots')
          .map((site) => `${path.basename(site.file)}:${site.line}: ${site.reason}`),
      ).toEqual([
        'questions.ts:24: firstRoot() is called at test/questions.test.ts:28, in a test, where firstRoot() asks through server.request(…), which pushRound() of @mcp-mrtr/runtime/testing does not answer through (it uses elicitInput, createMessage and listRoots); update the test by hand',
      ]);
    },
    TIMEOUT,
  );

  it('answers the migrated helpers as the scripted server answered the originals', async () => {
    type Helpers<S> = {
      confirm(server: S, action: string): Promise<boolean>;
      summarize(server: S, text: string): Promise<string>;
    };
    const base = path.join(CASES_DIR, 'mrtr-helper-tests');
    const before = (await import(path.join(base, 'before/questions.ts'))) as Helpers<unknown>;
    const after = (await import(path.join(base, 'after/questions.ts'))) as Helpers<Round>;
    /** A scripted server that logs what each push API was asked. */
    const scripted = (log: unknown[]) => ({
      elicitInput: (params: unknown) => {
        log.push(['elicitInput', params]);
        return Promise.resolve({ action: 'accept', content: { ok: true } });
      },
      createMessage: (params: unknown) => {
        log.push(['createMessage', params]);
        return Promise.resolve({ role: 'assistant', model: 'm', content: { type: 'text', text: 'short' } });
      },
    });
    const original: unknown[] = [];
    const migrated: unknown[] = [];
    const originalServer = scripted(original);
    const migratedServer = scripted(migrated);
    expect([
      await before.confirm(originalServer, 'archive a note'),
      await before.summarize(originalServer, 'a long note'),
    ]).toEqual([
      await after.confirm(pushRound(migratedServer), 'archive a note'),
      await after.summarize(pushRound(migratedServer), 'a long note'),
    ]);
    expect(migrated).toEqual(original);
    expect(original).toHaveLength(2);
  });
});
