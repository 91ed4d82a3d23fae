import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin, { NAMESPACE, rules } from '../src/index.js';

const PACKAGE = path.resolve(import.meta.dirname, '..');
const DOCS = path.resolve(PACKAGE, '../../docs/rules');
const ruleNames = Object.keys(rules).sort();

interface Example {
  readonly kind: 'incorrect' | 'correct';
  readonly language: string;
  readonly code: string;
  readonly line: number;
}

/** The fenced code blocks under "### ❌ Incorrect" and "### ✅ Correct". */
function examples(markdown: string): Example[] {
  const result: Example[] = [];
  let kind: Example['kind'] | undefined;
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('#'))
      kind = /^### ❌/.test(line) ? 'incorrect' : /^### ✅/.test(line) ? 'correct' : undefined;
    const fence = /^```(\w+)$/.exec(line);
    if (fence === null || kind === undefined) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end] !== '```') end++;
    result.push({
      kind,
      language: fence[1] ?? 'ts',
      code: lines.slice(start, end).join('\n'),
      line: start + 1,
    });
    i = end;
  }
  return result;
}

const linter = new Linter({ configType: 'flat' });

describe('rule docs', () => {
  it('exist for every rule and only for rules', () => {
    const docs = readdirSync(DOCS)
      .filter((file) => file.endsWith('.md'))
      .map((file) => file.slice(0, -3))
      .sort();
    expect(docs).toEqual(ruleNames);
  });

  describe.each(ruleNames)('%s', (ruleName) => {
    const markdown = readFileSync(path.join(DOCS, `${ruleName}.md`), 'utf8');
    const blocks = examples(markdown);

    it('has at least one ❌ and one ✅ example', () => {
      expect(blocks.filter((block) => block.kind === 'incorrect').length).toBeGreaterThan(0);
      expect(blocks.filter((block) => block.kind === 'correct').length).toBeGreaterThan(0);
    });

    it.each(blocks.map((block) => [`${block.kind} example at line ${block.line}`, block] as const))(
      '%s behaves as labelled',
      (_label, block) => {
        const messages = linter.verify(
          block.code,
          [...plugin.configs.recommended, { rules: { [`${NAMESPACE}/${ruleName}`]: 'error' } }],
          `example.${block.language}`,
        );
        expect(messages.filter((message) => message.fatal)).toEqual([]);
        const own = messages.filter((message) => message.ruleId === `${NAMESPACE}/${ruleName}`);
        if (block.kind === 'incorrect') expect(own.length).toBeGreaterThan(0);
        else expect(messages).toEqual([]);
      },
    );

    it('documents every option, or says there are none', () => {
      const schema = rules[ruleName]?.meta.schema;
      const options = Array.isArray(schema) ? schema : [];
      if (options.length === 0) expect(markdown).toMatch(/^This rule has no options\.$/m);
      for (const item of options) {
        for (const name of Object.keys((item as { properties?: object }).properties ?? {})) {
          expect(markdown).toContain(`\`${name}\``);
        }
      }
    });
  });

  it('match the rule metadata (eslint-doc-generator --check)', () => {
    // It loads the built plugin (dist/), which `npm test` builds before running vitest.
    const result = spawnSync('npx', ['--no-install', 'eslint-doc-generator', '--check'], {
      cwd: PACKAGE,
      encoding: 'utf8',
    });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
