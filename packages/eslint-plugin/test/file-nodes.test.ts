import tsParser from '@typescript-eslint/parser';
import { Linter, type Rule } from 'eslint';
import { describe, expect, it } from 'vitest';
import { fileAnalysis } from '../src/analysis/file-analysis.js';
import { collectingFileNodes, fileNodes, type FileNodes } from '../src/analysis/file-nodes.js';

const CODE = `
const server = new Server({ name: 'a', version: '1' }, { capabilities: { logging: {} } });
server.setRequestHandler(Schema, async (request) => {
  options.capabilities = { roots: {} };
  const { a } = request.params;
  return { content: [{ type: 'text', text: String(a) }] };
});
`;

/** What `fileNodes` lists, as `type@line:column` for each kind, from a probe rule's listeners. */
type Listed = Record<keyof FileNodes, string[]>;

function describeNodes(nodes: FileNodes): Listed {
  const at = (node: { type: string; loc: { start: { line: number; column: number } } }) =>
    `${node.type}@${node.loc.start.line}:${node.loc.start.column}`;
  return {
    calls: nodes.calls.map(at),
    news: nodes.news.map(at),
    objects: nodes.objects.map(at),
    properties: nodes.properties.map(at),
    assignments: nodes.assignments.map(at),
    objectsAndCalls: nodes.objectsAndCalls.map(at),
  };
}

/** Lints CODE with one probe rule per `probes` entry, in order; returns what the last one saw. */
function lintWith(probes: readonly ((context: Rule.RuleContext) => Rule.RuleListener)[]): void {
  const rules = Object.fromEntries(
    probes.map((create, i) => [`probe${i}`, { create } satisfies Rule.RuleModule]),
  );
  const messages = new Linter({ configType: 'flat' }).verify(
    CODE,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tsParser },
        plugins: { test: { rules } },
        rules: Object.fromEntries(probes.map((_, i) => [`test/probe${i}`, 'error'])),
      },
    ],
    'file.ts',
  );
  const crash = messages.find((message) => message.fatal === true);
  if (crash !== undefined) throw new Error(crash.message);
}

function analysisOf(context: Rule.RuleContext) {
  return fileAnalysis(context as unknown as Parameters<typeof fileAnalysis>[0]);
}

describe('fileNodes', () => {
  it('lists the same nodes whether a rule collects them or they are found by walking the AST', () => {
    let collected: Listed | undefined;
    let read: Listed | undefined;
    lintWith([
      (context) => {
        const file = analysisOf(context);
        return collectingFileNodes(file, () => {
          collected = describeNodes(fileNodes(file));
        }) as Rule.RuleListener;
      },
    ]);
    lintWith([
      (context) => ({
        Program: () => {
          read = describeNodes(fileNodes(analysisOf(context)));
        },
      }),
    ]);
    expect(collected).toEqual(read);
    expect(collected?.news).toEqual(['NewExpression@2:15']);
    expect(collected?.assignments).toEqual(['AssignmentExpression@4:2']);
    // The pattern `{ a }` holds a property too; only object literals' properties are listed.
    expect(collected?.properties).toHaveLength(8);
    expect(collected?.objectsAndCalls.slice(0, 3)).toEqual([
      'ObjectExpression@2:26',
      'ObjectExpression@2:55',
      'ObjectExpression@2:71',
    ]);
  });

  it('collects once per file, in the first rule that asks, for every later rule', () => {
    const seen: number[] = [];
    const probe = (context: Rule.RuleContext) => {
      const file = analysisOf(context);
      return collectingFileNodes(file, () => {
        seen.push(fileNodes(file).calls.length);
      }) as Rule.RuleListener;
    };
    lintWith([probe, probe]);
    expect(seen).toEqual([2, 2]);
  });

  it('refuses to be read during the traversal while a rule collects, rather than answer with part of the file', () => {
    expect(() =>
      lintWith([
        (context) => collectingFileNodes(analysisOf(context), () => {}) as Rule.RuleListener,
        (context) => ({
          CallExpression: () => {
            fileNodes(analysisOf(context));
          },
        }),
      ]),
    ).toThrow(/before Program:exit/);
  });
});
