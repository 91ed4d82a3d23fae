import { ESLintUtils } from '@typescript-eslint/utils';
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

export const createRule = ESLintUtils.RuleCreator<PluginDocs>(ruleDocsUrl);
