import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { manualSites, planMigration } from '@mcp-mrtr/codemod';
import { CASES_DIR } from './fixture-cases.js';

// Each test plans a TypeScript program of its own: slow on a loaded machine.
const TIMEOUT = 120_000;

// Issue 24: a question that stays manual says where its call runs (an HTTP route, oninitialized, a
// notification handler, a timer), naming each call of a helper or method that runs there, and why
// a class's method cannot take the round. The golden cases hold the output; these hold the reasons.

async function reasons(name: string): Promise<string[]> {
  const dir = path.join(CASES_DIR, name, 'before');
  const result = await planMigration({ files: [path.join(dir, 'server.ts')], cwd: dir });
  return manualSites(result)
    .filter((site) => site.transform === 'mrtr-handlers')
    .map((site) => `${site.line}: ${site.reason}`);
}

describe('manual reasons name where the call runs', () => {
  it(
    "a helper whose caller in another file stays manual names the caller's cause, given at its call",
    async () => {
      const dir = path.join(CASES_DIR, 'mrtr-helper-caller-manual', 'before');
      const result = await planMigration({
        files: [path.join(dir, 'server.ts'), path.join(dir, 'prompts.ts')],
        cwd: dir,
      });
      const cause =
        'a catch clause around a question destructures what it catches, so it cannot rethrow the suspension';
      expect(
        manualSites(result)
          .filter((site) => site.transform === 'mrtr-handlers')
          .map((site) => `${path.basename(site.file)}:${site.line}: ${site.reason}`)
          .sort(),
      ).toEqual([
        `prompts.ts:4: its caller at server.ts:11 stays manual: ${cause}`,
        `server.ts:11: ${cause}`,
      ]);
    },
    TIMEOUT,
  );

  it(
    'an Express route, and a helper called from oninitialized and a notification handler',
    async () => {
      expect(await reasons('mrtr-run-context-reasons')).toEqual([
        expect.stringMatching(
          /^13: requestApproval\(\) is called at server\.ts:22, where it runs in an HTTP route handler \(app\.post\('\/approvals\/:id'\)\), not in an MCP request/,
        ),
        expect.stringMatching(
          /^26: it runs in an HTTP route handler \(app\.post\('\/ask'\)\), not in an MCP request/,
        ),
        expect.stringMatching(
          /^36: refreshRoots\(\) is called at server\.ts:41, where it runs in oninitialized, .*; and at server\.ts:44, where it runs in a notification handler \(notifications\/roots\/list_changed\)/,
        ),
      ]);
    },
    TIMEOUT,
  );

  it(
    "a class's method: a call from a timer, an override, an interface, a bound reference",
    async () => {
      expect(await reasons('mrtr-class-member-manual')).toEqual([
        expect.stringMatching(
          /^9: Reminders\.confirm\(\) is called at server\.ts:80 \(reminders\.confirm\(…\)\), where it runs on a timer \(setInterval\)/,
        ),
        expect.stringMatching(/^22: Prompter\.ask\(\) is overridden at server\.ts:31/),
        expect.stringMatching(
          /^45: FormApprover\.approve\(\) implements Approver\.approve\(\), which AutoApprover \(server\.ts:\d+\) implements too, and code calls it through Approver at server\.ts:\d+ \(approver\.approve\(…\)\), so the round would have to go into Approver/,
        ),
        expect.stringMatching(/^58: Checker\.check\(\) is passed on or stored at server\.ts:67/),
      ]);
    },
    TIMEOUT,
  );

  it(
    'a function held by an object literal that escapes: exported, passed on, typed by an interface, handed to other code; a factory whose server would be left unused',
    async () => {
      expect(await reasons('mrtr-object-literal-member-manual')).toEqual([
        expect.stringMatching(
          /^19: it runs in ask\(\), a member of the object literal shared holds: shared is exported/,
        ),
        expect.stringMatching(
          /^28: it runs in sure\(\), a member of the object literal askers\(\) returns: askers\(\), which returns it, takes server only to ask through it/,
        ),
        expect.stringMatching(
          /^41: it runs in confirm\(\), a member of the object literal scriptApi holds: scriptApi is passed to runScript\(\) at server\.ts:77/,
        ),
        expect.stringMatching(
          /^49: it runs in ask\(\), a member of the object literal typed holds, typed Asker/,
        ),
        expect.stringMatching(
          /^57: it runs in approve\(\), a member of an object literal that is passed to registerHooks\(\) at server\.ts:55/,
        ),
        "65: it runs in a function stored under 'ask-again' in an object literal, which the codemod cannot follow to its callers",
      ]);
    },
    TIMEOUT,
  );

  it(
    'helpers calling each other, one of them also called from a timer',
    async () => {
      expect(await reasons('mrtr-recursive-helper-manual')).toEqual([
        '5: askName() is called at server.ts:14, where checkName() is called at server.ts:23, where it runs on a timer (setInterval), outside any request',
      ]);
    },
    TIMEOUT,
  );

  it(
    'an exported helper whose module another file imports whole, as a registry of tools',
    async () => {
      const dir = path.join(CASES_DIR, 'mrtr-helper-namespace-registry', 'before');
      const result = await planMigration({
        files: [path.join(dir, 'server.ts'), path.join(dir, 'tools/notes.ts')],
        cwd: dir,
      });
      expect(
        manualSites(result)
          .filter((site) => site.transform === 'mrtr-handlers' && site.category === 'elicitation')
          .map((site) => `${site.line}: ${site.reason}`),
      ).toEqual([
        "5: it runs in archive_note(), which is exported: ../server.ts:3 imports its module as noteTools, which may call it without naming it (a registry of tools, a loop over the module's exports); pass the round to it there by hand, or call it by name",
      ]);
    },
    TIMEOUT,
  );

  it(
    'an effect in an if before a question whose condition narrows a type its branch reads, or leads to a UrlElicitationRequiredError',
    async () => {
      const found = await reasons('mrtr-unsteady-condition');
      expect(found).toContain(
        '38: a replay would repeat audit.push(`released ${lastSeat.toUpperCase()}`) (line 36) before a question, in an if whose condition reads more than answers and journaled values and narrows lastSeat for its branch, which a journaled condition would not; journal it with round.step by hand',
      );
      expect(found).toContain(
        '57: a replay would repeat linked.delete(user) (line 50) before a question, in an if whose condition reads more than answers and journaled values and leads to the UrlElicitationRequiredError on line 53, whose retry the original decided by testing the condition again; decide on the retry from your own record of the link (see @mcp-mrtr/runtime/url-mode) by hand',
      );
    },
    TIMEOUT,
  );
});
