import { Linter, type ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { createRule } from '../src/util/create-rule.js';

type Options = [{ readonly terms: readonly string[]; readonly strict: boolean }];

/** A rule that reports the options its create() was given, so a test can read them back. */
const echo = createRule<Options, 'options'>({
  name: 'echo-options',
  meta: {
    type: 'problem',
    docs: { description: 'Reports its options.' },
    messages: { options: '{{options}}' },
    schema: [
      {
        type: 'object',
        properties: { terms: { type: 'array', items: { type: 'string' } }, strict: { type: 'boolean' } },
        additionalProperties: false,
      },
    ],
    defaultOptions: [{ terms: ['secret'], strict: false }],
  },
  create(context, [options]) {
    return {
      Program(node) {
        context.report({ node, messageId: 'options', data: { options: JSON.stringify(options) } });
      },
    };
  },
});

function optionsSeen(ruleConfig: Linter.RuleEntry): unknown {
  const [message] = new Linter().verify('x;', {
    // typescript-eslint's rule types and ESLint's describe the same object differently.
    plugins: { test: { rules: { echo } } as unknown as ESLint.Plugin },
    rules: { 'test/echo': ruleConfig },
  });
  return JSON.parse(message?.message ?? 'null');
}

describe('createRule', () => {
  it('hands create() the default options when the config gives none', () => {
    expect(optionsSeen('error')).toEqual({ terms: ['secret'], strict: false });
  });

  it("hands create() the user's options merged over the defaults", () => {
    expect(optionsSeen(['error', { strict: true }])).toEqual({ terms: ['secret'], strict: true });
    expect(optionsSeen(['error', { terms: ['pin'] }])).toEqual({ terms: ['pin'], strict: false });
  });

  it('links every rule to its docs page', () => {
    expect(echo.meta.docs?.url).toMatch(/\/docs\/rules\/echo-options\.md$/);
  });
});
