import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReport, manualSites, planMigration, formatMarkdownReport } from '@mcp-mrtr/codemod';
import { CASES_DIR } from './fixture-cases.js';

// Planning a TypeScript program: slow on a loaded machine.
const TIMEOUT = 120_000;

// Issue 24, item 1: what the rewrite does with presumed effects before a question, as the report
// says it. The golden case mrtr-effects-by-proof shows the rewritten code.

const CASE = path.join(CASES_DIR, 'mrtr-effects-by-proof', 'before');

describe('presumed effects before a question', () => {
  it(
    'lists live results left to run each round in the report, and says why a write returning a live object stays manual',
    async () => {
      const result = await planMigration({ files: [path.join(CASE, 'server.ts')], cwd: CASE });
      const notes = result.files.flatMap((file) => file.sites).flatMap((site) => site.notes ?? []);
      expect(notes).toEqual([
        'const ledger = await connectionProvider(); (line 50) re-runs each round: check it has no effect',
        'const session = openSession(line); (line 51) re-runs each round: check it has no effect',
      ]);
      const manual = manualSites(result).filter((site) => site.ruleId === 'no-push-elicitation');
      expect(manual.map((site) => site.reason)).toEqual([
        expect.stringContaining(
          'const ledger = (cached = await connectionProvider()); (line 65) both writes state outside the handler and returns a live object',
        ),
      ]);
      const markdown = formatMarkdownReport(buildReport(result, 'dry-run', CASE));
      expect(markdown).toContain('## Rewritten: check these');
      expect(markdown).toContain('server.ts:');
    },
    TIMEOUT,
  );
});
