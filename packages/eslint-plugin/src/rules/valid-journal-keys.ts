import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { staticString } from '../analysis/ast.js';
import { canReach, SegmentTracker, type FlowPoint } from '../analysis/code-paths.js';
import { fileAnalysis } from '../analysis/file-analysis.js';
import { isFunction } from '../analysis/handlers.js';
import { JOURNAL_IN_TEXT, journalMethod } from '../analysis/journaled-replay.js';
import { createRule } from '../util/create-rule.js';

type Node = TSESTree.Node;

const messages = {
  computedKey:
    'The key of round.{{method}} is computed, so it can differ between rounds and the journal then replays another entry under it, or none. Use a string literal; a key used again in a loop is numbered by the runtime (`key`, `key#2`, …).',
  duplicateKey:
    "The key '{{key}}' is already used by the round.{{other}} on line {{line}}. Give each question and step its own key: a repeated key is numbered in the order the calls run, so changing that order later feeds one call's journaled entry to the other.",
  numberedKey:
    "The key '{{key}}' ends like the runtime's numbering of a repeated key (`key#2`), so it can collide with one. Use a key without `#` and a number.",
} as const;

type MessageId = keyof typeof messages;

interface KeyUse {
  readonly point: FlowPoint;
  readonly call: TSESTree.CallExpression;
  readonly method: 'ask' | 'step';
  readonly key: string;
}

/** What the runtime appends to the second and later uses of a key in one run. */
const OCCURRENCE_SUFFIX = /#\d+$/;

/** Whether a node runs in a loop of its own function: a later iteration repeats the key on purpose. */
function inLoop(node: Node): boolean {
  let child: Node = node;
  for (
    let parent = node.parent;
    parent != null && !isFunction(parent);
    child = parent, parent = parent.parent
  ) {
    switch (parent.type) {
      case AST_NODE_TYPES.ForStatement:
        if (child !== parent.init) return true;
        break;
      case AST_NODE_TYPES.ForInStatement:
      case AST_NODE_TYPES.ForOfStatement:
        if (child === parent.body) return true;
        break;
      case AST_NODE_TYPES.WhileStatement:
      case AST_NODE_TYPES.DoWhileStatement:
        return true;
      default:
        break;
    }
  }
  return false;
}

export default createRule<[], MessageId>({
  name: 'valid-journal-keys',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Enforce literal keys for round.ask and round.step, each used once per handler outside loops',
      recommended: 'recommended',
    },
    messages,
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const file = fileAnalysis(context);
    if (!file.mayBeMcp || !file.mentions(JOURNAL_IN_TEXT)) return {};
    const tracker = new SegmentTracker();
    /** The keys used in each function being traversed, innermost last. */
    const frames: KeyUse[][] = [];

    return {
      ...(tracker.listeners as unknown as TSESLint.RuleListener),
      ':function'() {
        frames.push([]);
      },
      ':function:exit'() {
        const uses = frames.pop() ?? [];
        const reported = new Set<KeyUse>();
        for (const later of uses) {
          if (inLoop(later.call)) continue;
          const earlier = uses.find(
            (use) =>
              use !== later &&
              use.key === later.key &&
              !reported.has(use) &&
              !inLoop(use.call) &&
              canReach(use.point, later.point),
          );
          if (earlier === undefined) continue;
          reported.add(later);
          context.report({
            node: later.call.arguments[0] ?? later.call,
            messageId: 'duplicateKey',
            data: { key: later.key, other: earlier.method, line: String(earlier.call.loc.start.line) },
          });
        }
      },
      CallExpression(node) {
        const method = journalMethod(file, node);
        const argument = node.arguments[0];
        if (method === undefined || argument === undefined) return;
        // A `const` initialised with a literal is as stable as the literal.
        const key = staticString(file.scopeOf(argument), argument);
        if (key === undefined) {
          context.report({ node: argument, messageId: 'computedKey', data: { method } });
          return;
        }
        if (OCCURRENCE_SUFFIX.test(key))
          context.report({ node: argument, messageId: 'numberedKey', data: { key } });
        frames.at(-1)?.push({ point: tracker.point(node), call: node, method, key });
      },
    };
  },
});
