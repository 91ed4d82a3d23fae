import { createRequire } from 'node:module';
import type * as TsParser from '@typescript-eslint/parser';
import type { ESLint, Linter } from 'eslint';
import { rules } from './rules/index.js';
import type { ConfigName } from './util/create-rule.js';

const require = createRequire(import.meta.url);
const { name, version } = require('@mcp-mrtr/eslint-plugin/package.json') as {
  name: string;
  version: string;
};

export const NAMESPACE = '@mcp-mrtr';

/** Every extension an MCP server may be written in, ESM and CommonJS. */
export const FILES = ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'];

type Config = Linter.Config;

/** The configs users extend; each is an array of named entries. */
export const CONFIG_NAMES = [
  'recommended',
  'recommended-type-checked',
  'strict',
  'strict-type-checked',
  'all',
] as const;
export type PluginConfigName = (typeof CONFIG_NAMES)[number];

interface Plugin {
  meta: { name: string; namespace: string; version: string };
  rules: typeof rules;
  configs: Record<PluginConfigName | `flat/${PluginConfigName}`, Config[]>;
}

export const plugin: Plugin = {
  meta: { name, namespace: NAMESPACE, version },
  rules,
  configs: {} as Plugin['configs'],
};

const TIER: Readonly<Record<ConfigName, number>> = { recommended: 0, strict: 1 };

/** Rule severities for a tier, taken from each rule's `meta.docs.recommended` (`all` takes every rule). */
function rulesFor(tier: ConfigName | 'all'): Linter.RulesRecord {
  const entries = Object.entries(rules)
    .filter(([, rule]) => {
      const recommended = rule.meta.docs?.recommended;
      if (tier === 'all') return true;
      return recommended !== undefined && TIER[recommended] <= TIER[tier];
    })
    .map(([ruleName]) => [`${NAMESPACE}/${ruleName}`, 'error'] as const);
  return Object.fromEntries(entries);
}

/**
 * typescript-eslint's parser, loaded when the first file is parsed. Loading it (and TypeScript with
 * it) with the plugin was most of the plugin's load time, which a config that sets its own parser,
 * or a host with its own (oxlint), never needs. ESLint keys its cache on `meta`: the parser's own.
 */
const parser: Linter.Parser = {
  meta: {
    name: 'typescript-eslint/parser',
    version: (require('@typescript-eslint/parser/package.json') as { version: string }).version,
  },
  parseForESLint(code: string, options?: TsParser.ParserOptions) {
    const tsParser = require('@typescript-eslint/parser') as typeof TsParser;
    // typescript-eslint declares its readonly visitor keys; ESLint's types want mutable arrays.
    return tsParser.parseForESLint(code, options) as unknown as Linter.ESLintParseResult;
  },
};

const base: Config = {
  name: `${NAMESPACE}/base`,
  files: FILES,
  // typescript-eslint's rule types and ESLint's core types describe the same runtime shape in two
  // incompatible ways; configs use ESLint's so users can hand them to ESLint's APIs directly.
  plugins: { [NAMESPACE]: plugin as unknown as ESLint.Plugin },
  languageOptions: { parser },
};

/** Type information through typescript-eslint's project service (the nearest tsconfig per file). */
const typeChecked: Config = {
  name: `${NAMESPACE}/type-checked`,
  files: FILES,
  languageOptions: { parserOptions: { projectService: true } },
};

function config(configName: PluginConfigName, tier: ConfigName | 'all', typed: boolean): Config[] {
  return [
    base,
    ...(typed ? [typeChecked] : []),
    { name: `${NAMESPACE}/${configName}`, files: FILES, rules: rulesFor(tier) },
  ];
}

const configs: Record<PluginConfigName, Config[]> = {
  recommended: config('recommended', 'recommended', false),
  'recommended-type-checked': config('recommended-type-checked', 'recommended', true),
  strict: config('strict', 'strict', false),
  'strict-type-checked': config('strict-type-checked', 'strict', true),
  all: config('all', 'all', false),
};

for (const configName of CONFIG_NAMES) {
  plugin.configs[configName] = configs[configName];
  plugin.configs[`flat/${configName}`] = configs[configName];
}
