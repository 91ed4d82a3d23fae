import type { TSESLint } from '@typescript-eslint/utils';

/** The registry of rules, keyed by rule name (without the `@mcp-mrtr/` namespace). */
export const rules: Readonly<Record<string, TSESLint.RuleModule<string, readonly unknown[]>>> = {};
