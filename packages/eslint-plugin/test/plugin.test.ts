import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ruleDocsUrl } from '@mcp-mrtr/core';
import plugin, { CONFIG_NAMES, NAMESPACE, rules } from '../src/index.js';

const PACKAGE = path.resolve(import.meta.dirname, '..');
const packageJson = JSON.parse(readFileSync(path.join(PACKAGE, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};
const ruleNames = Object.keys(rules).sort();

describe('plugin object', () => {
  it('carries meta from package.json', () => {
    expect(plugin.meta).toEqual({
      name: packageJson.name,
      namespace: NAMESPACE,
      version: packageJson.version,
    });
  });

  it('registers exactly the rule files under src/rules', () => {
    const files = readdirSync(path.join(PACKAGE, 'src/rules'))
      .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
      .map((file) => file.slice(0, -'.ts'.length))
      .sort();
    expect(ruleNames).toEqual(files);
  });
});

describe.each(ruleNames)('rule %s', (ruleName) => {
  const rule = rules[ruleName];
  if (rule === undefined) throw new Error(ruleName);
  const docs = rule.meta.docs;

  it('documents itself the house way', () => {
    expect(docs?.url).toBe(ruleDocsUrl(ruleName));
    expect(docs?.description).toMatch(/^(Disallow|Require|Enforce) /);
    expect(docs?.description).not.toMatch(/\.$/);
    // Every rule works without types and uses them when present; none requires them.
    expect(docs?.requiresTypeChecking).toBeFalsy();
    expect(['recommended', 'strict']).toContain(docs?.recommended);
  });

  it('names only real message IDs as warning-level', () => {
    for (const messageId of docs?.warningMessageIds ?? [])
      expect(Object.keys(rule.meta.messages)).toContain(messageId);
  });

  it('has a described option schema and defaults that validate', () => {
    const schema = rule.meta.schema;
    const items = Array.isArray(schema) ? schema : [];
    for (const item of items) {
      const properties = (item as { properties?: Record<string, { description?: string }> }).properties ?? {};
      for (const [name, property] of Object.entries(properties))
        expect(property.description, name).toBeTruthy();
    }
    expect(rule.meta.defaultOptions?.length ?? 0).toBe(items.length);
  });
});

describe('configs', () => {
  it('exports every config under its bare name and a flat/ alias', () => {
    for (const name of CONFIG_NAMES) {
      expect(plugin.configs[name]).toBeDefined();
      expect(plugin.configs[`flat/${name}`]).toBe(plugin.configs[name]);
    }
  });

  it('names every entry and scopes it to all eight JS/TS extensions', () => {
    for (const name of CONFIG_NAMES) {
      for (const entry of plugin.configs[name]) {
        expect(entry.name).toMatch(new RegExp(`^${NAMESPACE}/`));
        expect(entry.files).toEqual(['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}']);
      }
    }
  });

  it('derives rule sets from meta.docs.recommended', () => {
    const rulesOf = (name: (typeof CONFIG_NAMES)[number]) =>
      Object.assign({}, ...plugin.configs[name].map((entry) => entry.rules ?? {})) as Record<string, unknown>;
    const byTier = (tier: string) =>
      ruleNames
        .filter((name) => rules[name]?.meta.docs?.recommended === tier)
        .map((name) => `${NAMESPACE}/${name}`);
    expect(Object.keys(rulesOf('recommended')).sort()).toEqual(byTier('recommended').sort());
    expect(Object.keys(rulesOf('strict')).sort()).toEqual(
      [...byTier('recommended'), ...byTier('strict')].sort(),
    );
    expect(Object.keys(rulesOf('all')).sort()).toEqual(
      ruleNames.map((name) => `${NAMESPACE}/${name}`).sort(),
    );
    expect(rulesOf('recommended-type-checked')).toEqual(rulesOf('recommended'));
    expect(rulesOf('strict-type-checked')).toEqual(rulesOf('strict'));
  });

  it('asks for type information only in the type-checked configs', () => {
    const usesProjectService = (name: (typeof CONFIG_NAMES)[number]) =>
      plugin.configs[name].some(
        (entry) =>
          (entry.languageOptions?.parserOptions as { projectService?: unknown } | undefined)
            ?.projectService === true,
      );
    expect(CONFIG_NAMES.filter(usesProjectService)).toEqual([
      'recommended-type-checked',
      'strict-type-checked',
    ]);
  });
});
