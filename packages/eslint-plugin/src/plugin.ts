import { createRequire } from 'node:module';
import type { TSESLint } from '@typescript-eslint/utils';
import { rules } from './rules/index.js';

const { name, version } = createRequire(import.meta.url)('@mcp-mrtr/eslint-plugin/package.json') as {
  name: string;
  version: string;
};

export const NAMESPACE = '@mcp-mrtr';

type Config = TSESLint.FlatConfig.Config;

interface Plugin {
  meta: { name: string; namespace: string; version: string };
  rules: typeof rules;
  configs: { recommended: Config[] };
}

export const plugin: Plugin = {
  meta: { name, namespace: NAMESPACE, version },
  rules,
  configs: { recommended: [] },
};

/** Rule severities for a config, taken from each rule's `meta.docs.recommended`. */
function recommendedRules(): TSESLint.FlatConfig.Rules {
  const entries = Object.entries(rules)
    .filter(([, rule]) => (rule.meta.docs as { recommended?: unknown } | undefined)?.recommended)
    .map(([ruleName]) => [`${NAMESPACE}/${ruleName}`, 'error'] as const);
  return Object.fromEntries(entries);
}

plugin.configs.recommended = [
  { name: `${NAMESPACE}/recommended`, plugins: { [NAMESPACE]: plugin }, rules: recommendedRules() },
];
