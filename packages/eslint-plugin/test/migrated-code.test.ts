import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { glob } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import plugin, { NAMESPACE } from '../src/index.js';

const REPO = path.resolve(import.meta.dirname, '../../..');

/** The rules for journaled handlers (`round.ask`, `round.step`), all in `recommended`. */
const JOURNAL_RULES = ['no-unjournaled-effects', 'valid-journal-keys', 'require-suspension-rethrow'];

/**
 * What `mcp-mrtr migrate` writes: the codemod's expected outputs and the equivalence suite's
 * migrated servers, which run the same scenarios as the code they came from.
 */
const MIGRATED = [
  'fixtures/codemod/cases/*/after/**/*.{ts,mts,cts,js,mjs,cjs}',
  'fixtures/mrtr-equivalence/after-v1/*.ts',
  'fixtures/mrtr-equivalence/after-v2/*.ts',
];

describe('code written by migrate', () => {
  it('gets no finding from the rules for journaled handlers in the recommended config', async () => {
    const files = await glob(MIGRATED, { cwd: REPO, absolute: true });
    const journaled = files.filter((file) => /\bround\.(?:ask|step)\(/.test(readFileSync(file, 'utf8')));
    // The check means something only while migrate writes journaled handlers here.
    expect(journaled.length).toBeGreaterThan(40);
    const eslint = new ESLint({
      cwd: REPO,
      overrideConfigFile: true,
      overrideConfig: plugin.configs.recommended,
      ignore: false,
    });
    const findings = (await eslint.lintFiles(journaled)).flatMap((result) =>
      result.messages
        .filter(
          (message) =>
            message.fatal || JOURNAL_RULES.includes(String(message.ruleId).replace(`${NAMESPACE}/`, '')),
        )
        .map(
          (message) =>
            `${path.relative(REPO, result.filePath)}:${message.line} ${message.ruleId}: ${message.message}`,
        ),
    );
    expect(findings).toEqual([]);
  }, 120_000);
});
