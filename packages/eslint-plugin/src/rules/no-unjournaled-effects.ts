import { splitWordParts } from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { calleeText, staticString, unwrap } from '../analysis/ast.js';
import { canReach, SegmentTracker, type FlowPoint } from '../analysis/code-paths.js';
import { isOutside, isRepeatableCall, isWriteCall } from '../analysis/effects.js';
import { fileAnalysis } from '../analysis/file-analysis.js';
import { isFunction, type FunctionNode } from '../analysis/handlers.js';
import {
  isRoundContext,
  JOURNAL_IN_TEXT,
  journaledFunctions,
  journalMethod,
  mayAsk,
  perCallValue,
  steppedFunction,
} from '../analysis/journaled-replay.js';
import { contains, walk } from '../analysis/walk.js';
import { createRule } from '../util/create-rule.js';
import { perOptions } from '../util/per-options.js';

type Node = TSESTree.Node;

const messages = {
  perCallValue:
    '{{what}} gives another value on every round, and the question on line {{line}} makes this handler run again from the top. Take it from a step (`await round.step(key, () => …)`) so that every round replays the first value.',
  write:
    '{{what}} runs before the question on line {{line}} outside a step, so every round of this call runs it again. Wrap it in `await round.step(key, …)` so that it runs once, or move it after the last question.',
  presumedEffect:
    'await {{what}} runs before the question on line {{line}} outside a step, so every round of this call runs it again, and its name does not say it only reads. Wrap it in `await round.step(key, …)` if it writes, sends or creates anything; if it is safe to repeat, name it in `allowCalls`.',
  takeFromStep: "Take the value from `{{round}}.step('{{key}}', …)`.",
  runInStep: "Run it in `{{round}}.step('{{key}}', …)`.",
} as const;

type MessageId = keyof typeof messages;
type Options = [{ allowCalls?: string[] }];

interface Effect {
  /** Where the effect runs in the function whose questions it is checked against. */
  readonly point: FlowPoint;
  readonly node: Node;
  readonly messageId: 'perCallValue' | 'write' | 'presumedEffect';
  readonly what: string;
  /** What a step key for it is made from: the callee or the written target, as written. */
  readonly keyBase: string;
  /** Whether `node` sits in that function itself, not in a callback of it. */
  readonly direct: boolean;
}

interface Question {
  readonly point: FlowPoint;
  /** The question itself, or the callback that asks. */
  readonly node: Node;
  /** The line of the question, for messages. */
  readonly line: number;
  readonly inCallback: boolean;
}

interface Frame {
  readonly fn: FunctionNode;
  /** The journaled function this one lies in, if any. */
  readonly root: FunctionNode | undefined;
  /** The function runs inside `round.step(key, fn)`: whatever it does happens once. */
  readonly inStep: boolean;
  /** Where a callback handed to a call (or called at once) runs in the function around it. */
  readonly entry: FlowPoint | undefined;
  readonly effects: Effect[];
  readonly questions: Question[];
}

const allowedCalls = perOptions(
  (options: Options[0]): ReadonlySet<string> => new Set(options.allowCalls ?? []),
);

/** A callback that runs where it is written: an argument of a call, or a function called at once. */
function isCallback(fn: FunctionNode): boolean {
  const parent = fn.parent;
  return (
    parent?.type === AST_NODE_TYPES.CallExpression &&
    (parent.callee === fn || parent.arguments.includes(fn as TSESTree.Expression))
  );
}

/** `Date.now()` → `date_now`: a step key in the style `migrate` writes. */
function keyFrom(text: string): string {
  const parts = splitWordParts(text.replace(/^new\s+/, '').replace(/\(.*$/s, ''));
  return parts.map((part) => part.toLowerCase()).join('_') || 'step';
}

export default createRule<Options, MessageId>({
  name: 'no-unjournaled-effects',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow writes and per-call values outside a step before a question of a journaled handler, since every round runs them again',
      recommended: 'recommended',
    },
    hasSuggestions: true,
    messages,
    schema: [
      {
        type: 'object',
        properties: {
          allowCalls: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description:
              'Names of functions or methods that are safe to repeat on every round, e.g. "connect".',
          },
        },
        additionalProperties: false,
      },
    ],
    defaultOptions: [{ allowCalls: [] }],
  },
  create(context, [options]) {
    const file = fileAnalysis(context);
    if (!file.mayBeMcp || !file.mentions(JOURNAL_IN_TEXT)) return {};
    const allowed = allowedCalls(options);
    const tracker = new SegmentTracker();
    const frames: Frame[] = [];
    const reported = new Set<Node>();
    const sourceCode = context.sourceCode;

    /** A key no journaled call of `root` uses yet, from `base`. */
    function freshKey(root: FunctionNode, base: string): string {
      const used = new Set<string>();
      walk(sourceCode, root, (node) => {
        if (node.type === AST_NODE_TYPES.CallExpression && journalMethod(file, node) !== undefined) {
          const key = staticString(file.scopeOf(node), node.arguments[0]);
          if (key !== undefined) used.add(key);
        }
      });
      let key = base;
      for (let n = 2; used.has(key); n++) key = `${base}_${n}`;
      return key;
    }

    /** How to take the value or run the statement in a step, where the function can await one. */
    function suggestion(frame: Frame, effect: Effect): TSESLint.SuggestionReportDescriptor<MessageId>[] {
      const root = frame.root;
      const round = root && journaledFunctions(file).get(root)?.name;
      if (root === undefined || round === undefined || !effect.direct || !frame.fn.async) return [];
      const node = effect.node;
      const key = freshKey(root, keyFrom(effect.keyBase));
      const step = (body: string) => `await ${round}.step('${key}', ${body})`;
      const fix = (target: Node, text: string): TSESLint.SuggestionReportDescriptor<MessageId>[] => [
        {
          messageId: effect.messageId === 'perCallValue' ? 'takeFromStep' : 'runInStep',
          data: { round, key },
          fix: (fixer) => fixer.replaceText(target, text),
        },
      ];
      if (effect.messageId === 'perCallValue') {
        // A Date is not JSON: journal the time and rebuild the Date from it.
        if (node.type === AST_NODE_TYPES.NewExpression)
          return fix(node, `new ${sourceCode.getText(node.callee)}(${step('() => Date.now()')})`);
        const parent = node.parent;
        const bare =
          (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === node) ||
          (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.right === node);
        const taken = step(`() => ${sourceCode.getText(node)}`);
        return fix(node, bare ? taken : `(${taken})`);
      }
      // A write whose result is not used: the whole statement runs in the step.
      const expression = node.parent?.type === AST_NODE_TYPES.AwaitExpression ? node.parent : node;
      const statement = expression.parent;
      if (statement?.type !== AST_NODE_TYPES.ExpressionStatement) return [];
      const indent = ' '.repeat(statement.loc.start.column);
      const body = sourceCode.getText(statement).replace(/\n/g, '\n  ');
      return fix(statement, `${step(`async () => {\n${indent}  ${body}\n${indent}}`)};`);
    }

    function addEffect(node: Node, messageId: Effect['messageId'], what: string, keyBase: string) {
      const frame = frames.at(-1);
      if (frame?.root === undefined || frame.inStep) return;
      frame.effects.push({ point: tracker.point(node), node, messageId, what, keyBase, direct: true });
    }

    function checkWrite(node: Node, target: Node) {
      const frame = frames.at(-1);
      if (frame?.root === undefined || !isOutside(file, frame.root, target)) return;
      const written = calleeText(sourceCode, target);
      addEffect(node, 'write', `Writing to ${written}`, written);
    }

    function report(frame: Frame, effect: Effect, question: Question) {
      if (reported.has(effect.node)) return;
      reported.add(effect.node);
      context.report({
        node: effect.node,
        messageId: effect.messageId,
        data: { what: effect.what, line: String(question.line) },
        suggest: suggestion(frame, effect),
      });
    }

    return {
      ...(tracker.listeners as unknown as TSESLint.RuleListener),
      ':function'(node: Node) {
        if (!isFunction(node)) return;
        const parent = frames.at(-1);
        const root = journaledFunctions(file).has(node) ? node : parent?.root;
        const inStep =
          root !== undefined &&
          (parent?.inStep === true || (node.parent != null && steppedFunction(file, node.parent) === node));
        frames.push({
          fn: node,
          root,
          inStep,
          entry:
            root !== undefined && root !== node && isCallback(node)
              ? tracker.enclosingPoint(node)
              : undefined,
          effects: [],
          questions: [],
        });
      },
      ':function:exit'() {
        const frame = frames.pop();
        if (frame?.root === undefined) return;
        for (const effect of frame.effects) {
          const question = frame.questions.find((candidate) =>
            contains(candidate.node, effect.node)
              ? // An argument of the question is evaluated before it asks.
                !candidate.inCallback
              : canReach(effect.point, candidate.point),
          );
          if (question !== undefined) report(frame, effect, question);
        }
        // A callback runs where it is handed over: its questions and effects count there too.
        const parent = frames.at(-1);
        const entry = frame.entry;
        if (parent === undefined || entry === undefined) return;
        const [first] = frame.questions;
        if (first !== undefined)
          parent.questions.push({ point: entry, node: frame.fn, line: first.line, inCallback: true });
        for (const effect of frame.effects) parent.effects.push({ ...effect, point: entry, direct: false });
      },
      CallExpression(node) {
        const frame = frames.at(-1);
        if (frame?.root === undefined) return;
        if (mayAsk(file, node)) {
          frame.questions.push({
            point: tracker.point(node),
            node,
            line: node.loc.start.line,
            inCallback: false,
          });
          return;
        }
        const value = perCallValue(node);
        if (value !== undefined) {
          addEffect(node, 'perCallValue', value, value);
        } else if (
          journalMethod(file, node) === undefined &&
          isWriteCall(file, node, frame.root, allowed) &&
          !isRoundContext(file, node.callee)
        ) {
          const callee = calleeText(sourceCode, unwrap(node.callee));
          addEffect(node, 'write', `${callee}(…)`, callee);
        }
      },
      // An awaited call that is neither a known read nor a known write is presumed to write, as
      // migrate presumes it; a call not awaited is presumed to compute (`format(…)`).
      AwaitExpression(node) {
        const frame = frames.at(-1);
        const call = unwrap(node.argument);
        if (frame?.root === undefined || call.type !== AST_NODE_TYPES.CallExpression) return;
        if (mayAsk(file, call) || journalMethod(file, call) !== undefined || perCallValue(call) !== undefined)
          return;
        if (isWriteCall(file, call, frame.root, allowed) || isRepeatableCall(file, call, allowed)) return;
        if (isRoundContext(file, call.callee)) return;
        const callee = calleeText(sourceCode, unwrap(call.callee));
        addEffect(call, 'presumedEffect', `${callee}(…)`, callee);
      },
      NewExpression(node) {
        const value = perCallValue(node);
        if (value !== undefined) addEffect(node, 'perCallValue', value, value);
      },
      AssignmentExpression: (node) => checkWrite(node, node.left),
      UpdateExpression: (node) => checkWrite(node, node.argument),
      UnaryExpression(node) {
        if (node.operator === 'delete') checkWrite(node, node.argument);
      },
    };
  },
});
