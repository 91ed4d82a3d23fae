import { CATEGORY_INFO, type LegacyCategory } from '@mcp-mrtr/core';

/**
 * What a site is about: one of the catalog's legacy categories, or `request-state`, readable
 * requestState, which is not an old API but a security requirement of the new protocol.
 */
export type SiteCategory = LegacyCategory | 'request-state';

/** The lint rule that reports readable or unverified requestState. */
export const REQUEST_STATE_RULE_ID = 'require-sealed-request-state';

/** The lint rule that reports a form field asking for a secret; such a form is never rewritten. */
export const SENSITIVE_FIELD_RULE_ID = 'no-sensitive-form-fields';

/** The lint rule that reports every site of a category, so a manual site stays visible. */
export function ruleIdOf(category: SiteCategory): string {
  return category === 'request-state' ? REQUEST_STATE_RULE_ID : CATEGORY_INFO[category].ruleId;
}
