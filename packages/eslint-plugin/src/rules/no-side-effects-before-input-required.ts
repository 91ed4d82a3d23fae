import { IDEMPOTENCY_TERMS } from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { calleeText, unwrap } from '../analysis/ast.js';
import { canReach, SegmentTracker, type FlowPoint } from '../analysis/code-paths.js';
import { isOutside, isRepeatableCall, isWriteCall } from '../analysis/effects.js';
import { fileAnalysis } from '../analysis/file-analysis.js';
import { isFunction, type FunctionNode } from '../analysis/handlers.js';
import { inputRequiredResult, returnedFrom } from '../analysis/mrtr-code.js';
import { contains } from '../analysis/walk.js';
import { INPUT_REQUIRED_IN_TEXT } from '../analysis/text-hints.js';
import { createRule } from '../util/create-rule.js';
import { perOptions } from '../util/per-options.js';

type Node = TSESTree.Node;

const messages = {
  sideEffect:
    '{{what}} runs before the input_required result on line {{line}}, so it runs again on every retry of this request. Move it after the last question, or guard it with an idempotency key carried in sealed requestState.',
} as const;

type Options = [{ allowCalls?: string[] }];

interface Effect {
  readonly point: FlowPoint;
  readonly what: string;
}

interface Frame {
  readonly fn: FunctionNode;
  readonly effects: Effect[];
  readonly returns: FlowPoint[];
}

/** A guard that depends on the carried state or an idempotency key makes a repeat harmless. */
const IDEMPOTENCY = new RegExp(IDEMPOTENCY_TERMS.join('|'), 'i');
const GUARD = new RegExp(`\\b(?:requestState|state)\\b|${IDEMPOTENCY.source}`, 'i');

const allowedCalls = perOptions(
  (options: Options[0]): ReadonlySet<string> => new Set(options.allowCalls ?? []),
);

export default createRule<Options, keyof typeof messages>({
  name: 'no-side-effects-before-input-required',
  meta: {
    type: 'suggestion',
    docs: {
      description:
        'Disallow awaited calls and writes that run before an input_required result in an MRTR handler, since every retry runs them again',
      recommended: 'strict',
    },
    messages,
    schema: [
      {
        type: 'object',
        properties: {
          allowCalls: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description: 'Names of functions or methods that are safe to repeat, e.g. "connect".',
          },
        },
        additionalProperties: false,
      },
    ],
    defaultOptions: [{ allowCalls: [] }],
  },
  create(context, [options]) {
    const file = fileAnalysis(context);
    if (!file.mayBeMcp) return {};
    if (!file.mentions(INPUT_REQUIRED_IN_TEXT)) return {};
    const allowed = allowedCalls(options);
    const tracker = new SegmentTracker();
    const frames: Frame[] = [];

    /** Whether an effect is unguarded: under no test of the carried state or an idempotency key. */
    function unguarded(frame: Frame, node: Node): boolean {
      const text = (test: Node) => context.sourceCode.getText(test);
      let child: Node = node;
      for (
        let parent = node.parent;
        parent != null && child !== frame.fn;
        child = parent, parent = parent.parent
      ) {
        const test =
          parent.type === AST_NODE_TYPES.IfStatement || parent.type === AST_NODE_TYPES.ConditionalExpression
            ? parent.test
            : parent.type === AST_NODE_TYPES.LogicalExpression
              ? parent.left
              : parent.type === AST_NODE_TYPES.SwitchCase
                ? parent.parent.discriminant
                : undefined;
        if (test !== undefined && test !== child && GUARD.test(text(test))) return false;
      }
      const call = unwrap(node);
      const args =
        call.type === AST_NODE_TYPES.CallExpression || call.type === AST_NODE_TYPES.NewExpression
          ? call.arguments
          : [];
      return !args.some((argument) => IDEMPOTENCY.test(text(argument)));
    }

    function addEffect(node: Node, what: string) {
      const frame = frames.at(-1);
      if (frame === undefined || !unguarded(frame, node)) return;
      frame.effects.push({ point: tracker.point(node), what });
    }

    function checkWrite(node: Node, target: Node) {
      const frame = frames.at(-1);
      if (frame === undefined || !isOutside(file, frame.fn, target)) return;
      addEffect(node, `Writing to ${calleeText(context.sourceCode, target)}`);
    }

    function checkResult(node: TSESTree.ObjectExpression | TSESTree.CallExpression) {
      const frame = frames.at(-1);
      if (frame === undefined || returnedFrom(node) !== frame.fn) return;
      if (inputRequiredResult(file, node) !== undefined) frame.returns.push(tracker.point(node));
    }

    return {
      ...(tracker.listeners as unknown as TSESLint.RuleListener),
      ':function'(node: Node) {
        if (isFunction(node)) frames.push({ fn: node, effects: [], returns: [] });
      },
      ':function:exit'() {
        const frame = frames.pop();
        if (frame === undefined || frame.returns.length === 0) return;
        for (const effect of frame.effects) {
          const reached = frame.returns.find(
            (result) => !contains(result.node, effect.point.node) && canReach(effect.point, result),
          );
          if (reached === undefined) continue;
          context.report({
            node: effect.point.node,
            messageId: 'sideEffect',
            data: { what: effect.what, line: String(reached.node.loc.start.line) },
          });
        }
      },
      AwaitExpression(node) {
        const awaited = unwrap(node.argument);
        if (awaited.type !== AST_NODE_TYPES.CallExpression && awaited.type !== AST_NODE_TYPES.NewExpression)
          return;
        if (isRepeatableCall(file, awaited, allowed)) return;
        addEffect(node, `await ${calleeText(context.sourceCode, awaited.callee)}(…)`);
      },
      CallExpression(node) {
        checkResult(node);
        if (node.parent.type === AST_NODE_TYPES.AwaitExpression) return;
        const frame = frames.at(-1);
        if (frame !== undefined && isWriteCall(file, node, frame.fn, allowed)) {
          addEffect(node, `${calleeText(context.sourceCode, node.callee)}(…)`);
        }
      },
      ObjectExpression: checkResult,
      AssignmentExpression: (node) => checkWrite(node, node.left),
      UpdateExpression: (node) => checkWrite(node, node.argument),
      UnaryExpression(node) {
        if (node.operator === 'delete') checkWrite(node, node.argument);
      },
    };
  },
});
