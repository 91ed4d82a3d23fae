import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import { glob } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import plugin, { FILES, NAMESPACE, rules } from '../src/index.js';

const REPO = path.resolve(import.meta.dirname, '../../..');

/** The rules that check MRTR code itself (issue 5), as opposed to finding old-style code. */
const MRTR_RULES = [
  'valid-elicitation-schema',
  'valid-url-elicitation',
  'no-input-required-outside-eligible-methods',
  'valid-input-required-result',
  'require-client-capability-check',
  'no-side-effects-before-input-required',
  'no-secrets-in-request-state',
  'url-accept-is-not-completion',
  'no-request-state-inspection',
  'no-reused-retry-id',
  'no-wait-for-elicitation-complete',
  'no-unjournaled-effects',
  'valid-journal-keys',
  'require-suspension-rethrow',
];

/**
 * Code that follows the spec: the MRTR guide's examples (kept verbatim), the runtime (its source and
 * the handlers its tests serve) and the conformance fixtures that pass the official suite.
 */
const COMPLIANT = [
  'fixtures/lint-project/src/spec-guide/*.ts',
  'packages/runtime/src/**/*.ts',
  'packages/runtime/test/fixtures/*.ts',
  'conformance/src/fixture-*.ts',
];

/**
 * Lines of the runtime's test handlers that break a rule on purpose, by file, rule and the text of
 * the line: the runtime's tests check what happens then.
 */
const DELIBERATE: Record<string, string> = {
  "packages/runtime/test/fixtures/replay-handlers.ts no-unjournaled-effects: effects.push('run book_trip');":
    'counts the runs of the handler, which the tests read',
  "packages/runtime/test/fixtures/replay-handlers.ts no-unjournaled-effects: effects.push('run survey');":
    'counts the runs of the handler, which the tests read',
  'packages/runtime/test/fixtures/replay-handlers.ts require-suspension-rethrow: } catch {':
    'fragile swallows the suspension, so the tests see the usage error the runtime raises',
};

function eslint(typed: boolean): ESLint {
  const overrideConfig: Linter.Config[] = [
    ...plugin.configs.all,
    ...(typed
      ? [
          {
            files: FILES,
            languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: REPO } },
          },
        ]
      : []),
  ];
  return new ESLint({ cwd: REPO, overrideConfigFile: true, overrideConfig, ignore: false });
}

describe('code that follows the spec', () => {
  it('is checked by every MRTR rule', () => {
    for (const name of MRTR_RULES) expect(rules[name], name).toBeDefined();
  });

  // Type-aware, this builds a program for the runtime and the fixtures: past vitest's 30 s on a loaded machine.
  it.each([false, true])(
    'gets no finding from the MRTR rules (type-aware: %s)',
    { timeout: 120_000 },
    async (typed) => {
      const files = await glob(COMPLIANT, { cwd: REPO, absolute: true });
      expect(files.filter((file) => file.includes('spec-guide'))).toHaveLength(3);
      expect(files.length).toBeGreaterThan(40);
      const results = await eslint(typed).lintFiles(files);
      const deliberate = (file: string, rule: string, line: number) =>
        `${file} ${rule}: ${readFileSync(path.join(REPO, file), 'utf8').split('\n')[line - 1]?.trim() ?? ''}` in
        DELIBERATE;
      const findings = results.flatMap((result) =>
        result.messages
          .filter((message) => {
            if (message.fatal) return true;
            const rule = String(message.ruleId).replace(`${NAMESPACE}/`, '');
            return (
              MRTR_RULES.includes(rule) &&
              !deliberate(path.relative(REPO, result.filePath), rule, message.line)
            );
          })
          .map(
            (message) =>
              `${path.relative(REPO, result.filePath)}:${message.line} ${message.ruleId}: ${message.message}`,
          ),
      );
      expect(findings).toEqual([]);
    },
  );
});
