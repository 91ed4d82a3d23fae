import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { manualSites, planMigration } from '@mcp-mrtr/codemod';
import { CASES_DIR } from './fixture-cases.js';

// Plans a TypeScript program of its own: slow on a loaded machine.
const TIMEOUT = 120_000;

// Issue 24: `this.elicitation.requestConfirmation(…)` through a field typed `any` is taken to call
// the one method of that name the run declares, when the call passes what it takes; the site says
// so. A name another declaration shares keeps the call manual, naming that declaration.

describe('a method reached through a field of unknown type', () => {
  it(
    'is followed when its name is unique in the run, with the assumption on the site; not otherwise',
    async () => {
      const dir = path.join(CASES_DIR, 'mrtr-class-member-untyped-field', 'before');
      const result = await planMigration({
        files: ['elicitation.ts', 'deploy-tools.ts', 'server.ts'].map((file) => path.join(dir, file)),
        cwd: dir,
      });
      const sites = result.files
        .flatMap((file) => file.sites)
        .filter((site) => site.transform === 'mrtr-handlers');
      const asked = sites.find((site) => site.file.endsWith('elicitation.ts') && site.line === 8);
      expect(asked?.rewrite).toBeDefined();
      expect(asked?.notes).toEqual([
        'assumed this.elicitation.requestConfirmation() at deploy-tools.ts:10, on a receiver whose type is unknown, is Elicitation.requestConfirmation(), the only declaration of requestConfirmation in the files migrate sees; check that it is',
      ]);
      expect(
        manualSites(result)
          .filter((site) => site.transform === 'mrtr-handlers' && site.category === 'elicitation')
          .map((site) => `${path.basename(site.file)}:${site.line}: ${site.reason}`),
      ).toEqual([
        expect.stringMatching(
          /^elicitation\.ts:16: this\.elicitation\.askReason\(\) at deploy-tools\.ts:16 is called on a receiver whose type is unknown, .*: elicitation\.ts:28 declares askReason too$/,
        ),
      ]);
    },
    TIMEOUT,
  );
});
