import tsParser from '@typescript-eslint/parser';
import { Linter, type Rule } from 'eslint';
import { describe, expect, it } from 'vitest';
import { perOptions } from '../src/util/per-options.js';

type Options = { readonly allow?: readonly string[] };

/** Lints two files under one config and counts how often the rule's options were derived. */
function derivations(ruleConfig: Linter.RuleEntry): { derived: number; values: unknown[] } {
  let derived = 0;
  const values: unknown[] = [];
  const settings = perOptions((options: Options) => {
    derived += 1;
    return new Set(options.allow);
  });
  const rule: Rule.RuleModule = {
    meta: {
      schema: [{ type: 'object', properties: { allow: { type: 'array', items: { type: 'string' } } } }],
      defaultOptions: [{ allow: [] }],
    },
    create(context) {
      values.push(settings(context.options[0] as Options));
      return {};
    },
  };
  const config: Linter.Config[] = [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tsParser },
      plugins: { probe: { rules: { rule } } },
      rules: { 'probe/rule': ruleConfig },
    },
  ];
  const linter = new Linter({ configType: 'flat' });
  for (const name of ['a.ts', 'b.ts', 'c.ts']) linter.verify('export const x = 1;', config, name);
  return { derived, values };
}

describe('perOptions', () => {
  it('derives once for a rule enabled without options', () => {
    const { derived, values } = derivations('error');
    expect(derived).toBe(1);
    expect(new Set(values).size).toBe(1);
  });

  it('derives once for written options, which ESLint merges into a new object for every file', () => {
    const { derived, values } = derivations(['error', { allow: ['token'] }]);
    expect(derived).toBe(1);
    expect(values[0]).toEqual(new Set(['token']));
    expect(new Set(values).size).toBe(1);
  });

  it('keeps different options apart', () => {
    const settings = perOptions((options: Options) => options.allow?.join(',') ?? '');
    expect(settings({ allow: ['a'] })).toBe('a');
    expect(settings({ allow: ['b'] })).toBe('b');
    expect(settings({ allow: ['a'] })).toBe('a');
  });
});
