import tsParser from '@typescript-eslint/parser';
import { Linter, type Rule } from 'eslint';
import { describe, expect, it } from 'vitest';
import { MCP_VOCABULARY_IN_TEXT } from '../src/analysis/text-hints.js';
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
