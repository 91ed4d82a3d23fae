import {
  ELICITATION_COMPLETE_GUIDANCE,
  ELICITATION_COMPLETE_METHOD,
  ELICITATION_ID_FIELD,
  HANDLER_REGISTRATION_METHODS,
  isRuntimeModule,
  legacySchema,
} from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { propertyName, staticKey, unwrap } from '../analysis/ast.js';
import { fileAnalysis, type FileAnalysis } from '../analysis/file-analysis.js';
import { isFunction } from '../analysis/handlers.js';
import { calleeName } from '../analysis/invoked-member.js';
import { sdkName } from '../analysis/sdk-references.js';
import { walk } from '../analysis/walk.js';
import { createRule } from '../util/create-rule.js';

type Node = TSESTree.Node;

const messages = {
  dispatch: 'This code waits for {{method}}, which servers no longer send. {{guidance}}',
  schemaMatch: '{{schema}}.{{call}}() matches {{method}}, which servers no longer send. {{guidance}}',
  elicitationId:
    'This waits for the URL-mode step identified by elicitationId to complete; 2026-07-28 URL elicitations have no elicitationId and no completion notification. {{guidance}}',
} as const;

const CLIENT_MODULE = /^@modelcontextprotocol\/(?:client|sdk\/client)(?:\/|$)/;
const ELICITATION_METHOD = 'elicitation/create';

function isClientFile(file: FileAnalysis): boolean {
  return file.ast.body.some(
    (statement) =>
      statement.type === AST_NODE_TYPES.ImportDeclaration &&
      (CLIENT_MODULE.test(statement.source.value) ||
        (isRuntimeModule(statement.source.value) && statement.source.value.endsWith('/client'))),
  );
}

/** Whether a function is a client's handler of elicitation requests. */
function isElicitationHandler(file: FileAnalysis, fn: Node): boolean {
  const parent = fn.parent;
  if (parent?.type !== AST_NODE_TYPES.CallExpression || parent.arguments[1] !== fn) return false;
  if (calleeName(unwrap(parent.callee)) !== 'setRequestHandler') return false;
  const target = parent.arguments[0];
  if (target === undefined) return false;
  return (
    propertyName(target) === ELICITATION_METHOD ||
    legacySchema(sdkName(file, target) ?? '')?.method === ELICITATION_METHOD
  );
}

function isPromiseExecutor(node: Node): boolean {
  const parent = node.parent;
  return (
    parent?.type === AST_NODE_TYPES.NewExpression &&
    parent.arguments[0] === node &&
    calleeName(unwrap(parent.callee)) === 'Promise'
  );
}

/** Whether an expression mentions an elicitationId (`params.elicitationId`, a binding of that name). */
function mentionsElicitationId(file: FileAnalysis, root: Node): boolean {
  let found = false;
  walk(file.sourceCode, root, (node) => {
    // Callbacks run later, except a promise's executor: `new Promise((resolve) => pending.set(id, resolve))`.
    if (found || (isFunction(node) && !isPromiseExecutor(node))) return false;
    // `{ serverElicitationId: request.elicitationId }`: the id recorded as data in an object (a
    // row written to a store), which is not waiting on it.
    if (
      (node.type === AST_NODE_TYPES.Property || node.type === AST_NODE_TYPES.SpreadElement) &&
      node.parent.type === AST_NODE_TYPES.ObjectExpression
    )
      return false;
    if (node.type === AST_NODE_TYPES.MemberExpression && staticKey(node) === ELICITATION_ID_FIELD)
      found = true;
    if (node.type === AST_NODE_TYPES.Identifier && node.name === ELICITATION_ID_FIELD) found = true;
    return !found;
  });
  return found;
}

export default createRule<[], keyof typeof messages>({
  name: 'no-wait-for-elicitation-complete',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow client code that waits for notifications/elicitation/complete or for a URL-mode step by its elicitationId',
      recommended: 'recommended',
    },
    messages,
    schema: [],
  },
  create(context) {
    const file = fileAnalysis(context);
    if (!file.mayBeMcp) return {};
    const text = context.sourceCode.text;
    const mentionsMethod = text.includes(ELICITATION_COMPLETE_METHOD);
    const mentionsSchema = text.includes('ElicitationCompleteNotificationSchema');
    const mentionsId = text.includes(ELICITATION_ID_FIELD);
    if (!mentionsMethod && !mentionsSchema && !mentionsId) return {};
    const clientFile = mentionsId && isClientFile(file);
    const data = { method: ELICITATION_COMPLETE_METHOD, guidance: ELICITATION_COMPLETE_GUIDANCE };

    /** Where a use of the method string waits for the notification (registration is another rule's job). */
    function waits(literal: TSESTree.Literal): boolean {
      const parent = literal.parent;
      switch (parent.type) {
        case AST_NODE_TYPES.BinaryExpression:
          return ['===', '==', '!==', '!='].includes(parent.operator);
        case AST_NODE_TYPES.SwitchCase:
          return parent.test === literal;
        case AST_NODE_TYPES.CallExpression: {
          const name = calleeName(unwrap(parent.callee));
          return (
            parent.arguments.includes(literal) &&
            name !== undefined &&
            !(HANDLER_REGISTRATION_METHODS as readonly string[]).includes(name) &&
            name !== 'removeNotificationHandler'
          );
        }
        case AST_NODE_TYPES.Property:
          // `{ 'notifications/elicitation/complete': (n) => … }`: a handler table.
          return parent.key === literal && isFunction(unwrap(parent.value));
        default:
          return false;
      }
    }

    /** Whether an awaited expression inside a client waits on an elicitationId. */
    function inClientElicitation(node: Node): boolean {
      if (clientFile) return true;
      for (let current = node.parent; current != null; current = current.parent) {
        if (isFunction(current) && isElicitationHandler(file, current)) return true;
      }
      return false;
    }

    // Each listener is installed only where the text holds what it looks for: most nodes of the
    // few files that get here are literals, calls and awaits that could never match.
    const listeners: TSESLint.RuleListener = {};
    if (mentionsMethod) {
      listeners.Literal = (node) => {
        if (node.value !== ELICITATION_COMPLETE_METHOD || !waits(node)) return;
        context.report({ node: node.parent, messageId: 'dispatch', data });
      };
    }
    if (mentionsSchema) {
      listeners.CallExpression = (node) => {
        const callee = unwrap(node.callee);
        if (callee.type !== AST_NODE_TYPES.MemberExpression) return;
        const call = staticKey(callee);
        if (call !== 'parse' && call !== 'safeParse') return;
        const schema = sdkName(file, callee.object);
        if (schema === undefined || legacySchema(schema)?.method !== ELICITATION_COMPLETE_METHOD) return;
        context.report({ node, messageId: 'schemaMatch', data: { ...data, schema, call } });
      };
    }
    if (mentionsId) {
      listeners.AwaitExpression = (node) => {
        if (!mentionsElicitationId(file, node.argument) || !inClientElicitation(node)) return;
        context.report({ node, messageId: 'elicitationId', data });
      };
    }
    return listeners;
  },
});
