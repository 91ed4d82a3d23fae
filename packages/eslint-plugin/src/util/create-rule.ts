import * as ESLintUtils from '@typescript-eslint/utils/eslint-utils';
import { ruleDocsUrl, type LegacyCategory } from '@mcp-mrtr/core';

/** The configs a rule can belong to; `all` holds every rule. */
export type ConfigName = 'recommended' | 'strict';

/** Extra `meta.docs` fields every rule declares; configs and docs are generated from them. */
export interface PluginDocs {
  /** The smallest config that enables the rule (`strict` includes `recommended`). */
  readonly recommended?: ConfigName;
  /**
   * True when the rule needs type information. Our rules work without it and resolve more
   * receivers with it (`recommended-type-checked`), so every rule here leaves this false.
   */
  readonly requiresTypeChecking?: boolean;
  /** The catalog category the rule reports, when it reports one. */
  readonly category?: LegacyCategory;
  /**
   * Message IDs that report something deprecated but still valid; `mcp-mrtr check` lowers them
   * to warnings (ESLint itself has one severity per rule).
   */
  readonly warningMessageIds?: readonly string[];
}

const createRuleWithDocs = ESLintUtils.RuleCreator<PluginDocs>(ruleDocsUrl);

/**
 * typescript-eslint's creator with the docs URL, minus its per-file option merge: ESLint 10 already
 * merges `meta.defaultOptions` into `context.options` once per config, and merging again with
 * `structuredClone` on every file and rule was a fifth of the plugin's lint time.
 */
export const createRule: typeof createRuleWithDocs = (rule) => {
  const created = createRuleWithDocs(rule);
  const defaults = created.meta.defaultOptions;
  return {
    ...created,
    create: (context) =>
      rule.create(context, context.options.length > 0 || defaults === undefined ? context.options : defaults),
  };
};
