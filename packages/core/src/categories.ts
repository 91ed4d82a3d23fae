/**
 * The five kinds of old-style code the project finds. Each maps to exactly one lint rule, so a
 * site the codemod leaves for manual work stays visible under a stable rule ID.
 */
export const LEGACY_CATEGORIES = [
  'elicitation',
  'sampling',
  'roots',
  'logging',
  'elicitation-complete',
] as const;

export type LegacyCategory = (typeof LEGACY_CATEGORIES)[number];

export interface CategoryInfo {
  readonly category: LegacyCategory;
  /** The lint rule that reports every site of this category. */
  readonly ruleId: string;
  /** Whether the feature itself is deprecated, or only the old way of using it is removed. */
  readonly status: 'push-removed' | 'deprecated' | 'removed';
  /** The spec change behind it. */
  readonly specChange: 'SEP-2322' | 'SEP-2577';
  /** One sentence: what to do instead. */
  readonly guidance: string;
}

export const CATEGORY_INFO: Readonly<Record<LegacyCategory, CategoryInfo>> = {
  elicitation: {
    category: 'elicitation',
    ruleId: 'no-push-elicitation',
    status: 'push-removed',
    specChange: 'SEP-2322',
    guidance:
      'Return an input_required result with an elicitation/create entry in inputRequests and read the answer from inputResponses when the client retries.',
  },
  sampling: {
    category: 'sampling',
    ruleId: 'no-deprecated-sampling',
    status: 'deprecated',
    specChange: 'SEP-2577',
    guidance:
      "Call an LLM provider's API from the server instead; sampling is deprecated and push sampling requests are removed.",
  },
  roots: {
    category: 'roots',
    ruleId: 'no-deprecated-roots',
    status: 'deprecated',
    specChange: 'SEP-2577',
    guidance:
      'Take the working directory or files as tool arguments, resource URIs or server configuration; roots are deprecated.',
  },
  logging: {
    category: 'logging',
    ruleId: 'no-deprecated-logging',
    status: 'deprecated',
    specChange: 'SEP-2577',
    guidance: 'Log to stderr (stdio servers) or through OpenTelemetry; protocol logging is deprecated.',
  },
  'elicitation-complete': {
    category: 'elicitation-complete',
    ruleId: 'no-elicitation-complete-notification',
    status: 'removed',
    specChange: 'SEP-2322',
    guidance:
      'Remove the notification; the server learns on the client’s retry whether the URL-mode step completed.',
  },
};

export function isLegacyCategory(value: string): value is LegacyCategory {
  return (LEGACY_CATEGORIES as readonly string[]).includes(value);
}
