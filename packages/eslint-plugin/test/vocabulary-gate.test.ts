import tsParser from '@typescript-eslint/parser';
import { Linter, type Rule } from 'eslint';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FRAMEWORK_MODULE_IN_TEXT, MRTR_IN_TEXT, SDK_MODULE_IN_TEXT } from '@mcp-mrtr/core';
import { globSync } from 'tinyglobby';
import {
  anchoredScan,
  callOfAny,
  CORE_HINTS,
  hintsInText,
  MCP_VOCABULARY_IN_TEXT,
  mentionsMcpVocabulary,
  part,
  VOCABULARY_ANCHORS,
} from '../src/analysis/text-hints.js';
import { rules } from '../src/rules/index.js';

// An ordinary module with MCP look-alike names and a `requestState` field, but no MCP word.
const ORDINARY = `
export class Mailer {
  private readonly queue: string[] = [];
  createMessage(text: string) { return { text, at: Date.now() }; }
  listRoots(): string[] { return this.queue.filter((item) => item.startsWith('/')); }
  log(level: string, data: unknown) { console.error(level, data); }
  async request(url: string) { return fetch(url); }
}
export const state = { requestState: JSON.stringify({ step: 1 }), input: 'x' };
`;

/** The listeners a rule returns for a file, run through ESLint with the rule's default options. */
function listenersFor(rule: (typeof rules)[string], code: string): object {
  let listeners: object = {};
  const probe: Rule.RuleModule = {
    meta: rule.meta as Rule.RuleMetaData,
    create(context) {
      listeners = (rule as unknown as Rule.RuleModule).create(context);
      return listeners as Rule.RuleListener;
    },
  };
  new Linter({ configType: 'flat' }).verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tsParser },
        plugins: { probe: { rules: { rule: probe } } },
        rules: { 'probe/rule': 'error' },
      },
    ],
    'file.ts',
  );
  return listeners;
}

describe('the vocabulary every rule checks first', () => {
  it('does not match an ordinary module, look-alike names included', () => {
    expect(MCP_VOCABULARY_IN_TEXT.test(ORDINARY)).toBe(false);
  });

  it('matches each rule’s own first words', () => {
    for (const text of [
      "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
      'await ctx.elicitInput({ message })',
      "return { resultType: 'input_required' }",
      'const answer = params.inputResponses?.confirm;',
      "await client.request({ method: 'tools/call' })",
      "send({ jsonrpc: '2.0', id: 1 })",
      "{ mode: 'url', url }",
      'server.server.createMessage(request)',
      'const state = seal({ step: 1 });',
      "onNotification('notifications/elicitation/complete')",
      'const { elicitationId } = notification.params;',
    ]) {
      expect(MCP_VOCABULARY_IN_TEXT.test(text), text).toBe(true);
    }
  });

  it('lets a rule listen where the words are', () => {
    const server = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\n${ORDINARY}`;
    expect(
      Object.keys(listenersFor(rules['no-push-elicitation'] as (typeof rules)[string], server)),
    ).not.toEqual([]);
  });

  it.each(Object.entries(rules))('%s installs no listeners in a file without MCP words', (_, rule) => {
    expect(Object.keys(listenersFor(rule, ORDINARY))).toEqual([]);
  });
});

/** Each anchor where a part may or may not match: inside words, after dots, quoted, called, keyed. */
const ANCHOR_CONTEXTS = VOCABULARY_ANCHORS.flatMap((anchor) => [
  anchor,
  `x${anchor}`,
  `${anchor}x`,
  `$${anchor}(`,
  `a.${anchor}`,
  `a. \n  ${anchor}.b`,
  `'${anchor}'`,
  `"${anchor}/sub/path.js"`,
  `\`${anchor}-x\``,
  `${anchor}(`,
  `${anchor} (x)`,
  `${anchor}: {}`,
  `${anchor} : 'url'`,
  `${anchor}Input(`,
  `${anchor}Url`,
]);

/** Every source and fixture file of the repository: real code of every shape the rules check. */
function repositoryTexts(): string[] {
  const root = path.resolve(import.meta.dirname, '../../..');
  return globSync(
    ['packages/*/{src,test}/**/*.{ts,js,mjs}', 'fixtures/**/*.{ts,js,mjs}', 'examples/**/*.ts'],
    {
      cwd: root,
      ignore: ['**/node_modules/**', '**/dist/**'],
    },
  ).map((file) => readFileSync(path.join(root, file), 'utf8'));
}

describe('mentionsMcpVocabulary', () => {
  const texts = [ORDINARY, ...ANCHOR_CONTEXTS, ...repositoryTexts()];

  it('answers as MCP_VOCABULARY_IN_TEXT does, on the repository and on every anchor in context', () => {
    expect(texts.length).toBeGreaterThan(ANCHOR_CONTEXTS.length + 100);
    const disagreements = texts.filter(
      (text) => mentionsMcpVocabulary(text) !== MCP_VOCABULARY_IN_TEXT.test(text),
    );
    expect(disagreements).toEqual([]);
  });

  it('finds a part whose anchor starts inside another anchor that does not match there', () => {
    const scan = anchoredScan([part('abc', { after: 'X' }), part('bcd', { start: '\\b' })]);
    expect(scan('abcd')).toBe(false);
    expect(scan('a bcd')).toBe(true);
    const overlapping = anchoredScan([part('abc', { after: 'X' }), part('bcd')]);
    expect(overlapping('xabcd')).toBe(true);
    expect(overlapping('abcX')).toBe(true);
    expect(overlapping('abc bc')).toBe(false);
  });

  it('finds in one scan every hint whose own pattern matches, and only those', () => {
    const configured = callOfAny(['$seal', 'wrapState']);
    const probes = [...texts, '$seal(x)', 'a.wrapState (s)', 'x$seal(', 'unwrapState()'];
    for (const text of probes) {
      const { covered, found } = hintsInText(text);
      expect(covered.has(configured)).toBe(true);
      const wrong = [...covered].filter((pattern) => found.has(pattern) !== pattern.test(text));
      expect(
        wrong.map((pattern) => pattern.source),
        text.slice(0, 200),
      ).toEqual([]);
    }
  });

  it("builds core's SDK, framework and MRTR patterns from the same words", () => {
    for (const [ours, core] of [
      [CORE_HINTS.SDK_MODULE, SDK_MODULE_IN_TEXT],
      [CORE_HINTS.FRAMEWORK_MODULE, FRAMEWORK_MODULE_IN_TEXT],
      [CORE_HINTS.MRTR, MRTR_IN_TEXT],
    ] as const) {
      const disagreements = texts.filter((text) => ours.test(text) !== core.test(text));
      expect(disagreements, core.source).toEqual([]);
    }
  });
});
