import {
  FABRICATED_REQUEST_STATE_GUIDANCE,
  REQUEST_STATE_DECODERS,
  REQUEST_STATE_INSPECTION_GUIDANCE,
  REQUEST_STATE_OBSERVERS,
} from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPath, resolveConst, staticKey, unwrap } from '../analysis/ast.js';
import {
  isClientRequestParams,
  isClientResult,
  isReceivedRequestState,
} from '../analysis/client-requests.js';
import { fileAnalysis, type FileAnalysis } from '../analysis/file-analysis.js';
import { CLIENT_REQUEST_IN_TEXT, INPUT_REQUIRED_IN_TEXT } from '../analysis/text-hints.js';
import { createRule } from '../util/create-rule.js';

type Node = TSESTree.Node;

const messages = {
  decoded: 'The client decodes the requestState it received with {{callee}}(). {{guidance}}',
  takenApart: 'The client takes the requestState it received apart with .{{method}}(). {{guidance}}',
  modified: 'The client changes the requestState it received before sending it back. {{guidance}}',
  fabricated: 'The client attaches a requestState {{how}}, not one the server sent. {{guidance}}',
} as const;

const REQUEST_STATE = 'requestState';
const DECODERS: ReadonlySet<string> = new Set(REQUEST_STATE_DECODERS);
const OBSERVERS: ReadonlySet<string> = new Set(REQUEST_STATE_OBSERVERS);

/** How a requestState value is made up on the client, or undefined when it may be the echoed string. */
function fabrication(file: FileAnalysis, value: Node): string | undefined {
  const current = resolveConst(file.scopeOf(value), value);
  switch (current.type) {
    case AST_NODE_TYPES.Literal:
      return typeof current.value === 'string' ? 'written as a string literal' : undefined;
    case AST_NODE_TYPES.TemplateLiteral:
      // A template around the received state changes it, which is reported where the state is used.
      return current.expressions.some((expression) => isReceivedRequestState(file, expression))
        ? undefined
        : 'built from a template string';
    case AST_NODE_TYPES.CallExpression: {
      const callee = memberPath(unwrap(current.callee))?.join('.');
      return callee === 'JSON.stringify' || callee === 'btoa' ? `built with ${callee}()` : undefined;
    }
    case AST_NODE_TYPES.LogicalExpression:
      // `previous ?? ''`: a fallback sends a state even when the server sent none.
      if (current.operator === '&&') return undefined;
      return fabrication(file, current.right) === undefined ? undefined : 'as a fallback when none was sent';
    default:
      return undefined;
  }
}

export default createRule<[], keyof typeof messages>({
  name: 'no-request-state-inspection',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow client code that parses, decodes or changes a received requestState, or attaches one the server did not send',
      recommended: 'recommended',
    },
    messages,
    schema: [],
  },
  create(context) {
    const file = fileAnalysis(context);
    if (!file.mayBeMcp) return {};
    // Only files that send MRTR-eligible requests, or test for input_required results, can hold a
    // received requestState.
    if (
      !context.sourceCode.text.includes(REQUEST_STATE) ||
      !(file.mentions(CLIENT_REQUEST_IN_TEXT) || file.mentions(INPUT_REQUIRED_IN_TEXT))
    )
      return {};

    function report(node: Node, messageId: keyof typeof messages, data: Record<string, string> = {}) {
      context.report({ node, messageId, data: { guidance: REQUEST_STATE_INSPECTION_GUIDANCE, ...data } });
    }

    /** What the code around a received requestState does with it. */
    function checkUse(node: Node) {
      let use: Node = node;
      // `state!`, `state as string`, `(state ?? '')`: still the received value.
      while (
        use.parent?.type === AST_NODE_TYPES.TSNonNullExpression ||
        use.parent?.type === AST_NODE_TYPES.TSAsExpression ||
        use.parent?.type === AST_NODE_TYPES.ChainExpression ||
        (use.parent?.type === AST_NODE_TYPES.LogicalExpression && use.parent.left === use)
      ) {
        use = use.parent;
      }
      const parent = use.parent;
      if (parent == null) return;
      if (
        parent.type === AST_NODE_TYPES.CallExpression &&
        parent.arguments.includes(use as TSESTree.Expression)
      ) {
        const callee = memberPath(unwrap(parent.callee))?.join('.');
        if (callee !== undefined && DECODERS.has(callee)) report(parent, 'decoded', { callee });
      } else if (
        parent.type === AST_NODE_TYPES.NewExpression &&
        parent.arguments.includes(use as TSESTree.Expression)
      ) {
        const callee = memberPath(parent.callee)?.join('.');
        if (callee !== undefined && DECODERS.has(callee))
          report(parent, 'decoded', { callee: `new ${callee}` });
      } else if (parent.type === AST_NODE_TYPES.MemberExpression && parent.object === use) {
        const method = staticKey(parent);
        const called =
          parent.parent.type === AST_NODE_TYPES.CallExpression && parent.parent.callee === parent;
        if (called && method !== undefined && !OBSERVERS.has(method))
          report(parent.parent, 'takenApart', { method });
      } else if (parent.type === AST_NODE_TYPES.BinaryExpression && parent.operator === '+') {
        report(parent, 'modified');
      } else if (
        parent.type === AST_NODE_TYPES.TemplateLiteral &&
        !(parent.expressions.length === 1 && parent.quasis.every((quasi) => quasi.value.cooked === ''))
      ) {
        report(parent, 'modified');
      }
    }

    return {
      MemberExpression(node) {
        if (staticKey(node) !== REQUEST_STATE) return;
        // `result.requestState = …` changes what the next attempt sends.
        if (
          node.parent.type === AST_NODE_TYPES.AssignmentExpression &&
          node.parent.left === node &&
          isClientResult(file, node.object)
        ) {
          report(node.parent, 'modified');
          return;
        }
        if (isReceivedRequestState(file, node)) checkUse(node);
      },
      Identifier(node) {
        if (node.parent.type === AST_NODE_TYPES.MemberExpression && node.parent.property === node) return;
        if (
          node.parent.type === AST_NODE_TYPES.Property &&
          node.parent.key === node &&
          !node.parent.shorthand
        )
          return;
        if (node.parent.type === AST_NODE_TYPES.VariableDeclarator && node.parent.id === node) return;
        if (!/state/i.test(node.name) || !isReceivedRequestState(file, node)) return;
        checkUse(node);
      },
      Property(node) {
        if (staticKey(node) !== REQUEST_STATE || node.parent.type !== AST_NODE_TYPES.ObjectExpression) return;
        if (!isClientRequestParams(file, node.parent)) return;
        const how = fabrication(file, node.value);
        if (how !== undefined) {
          context.report({
            node: node.value,
            messageId: 'fabricated',
            data: { how, guidance: FABRICATED_REQUEST_STATE_GUIDANCE },
          });
        }
      },
    };
  },
});
