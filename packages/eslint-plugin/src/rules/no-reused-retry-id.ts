import { isMrtrEligibleMethod, REUSED_RETRY_ID_GUIDANCE } from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESTree } from '@typescript-eslint/utils';
import {
  asObjectLiteral,
  findVariable,
  objectProperty,
  resolveConst,
  staticKey,
  staticString,
  unwrap,
} from '../analysis/ast.js';
import { fileAnalysis, type FileAnalysis } from '../analysis/file-analysis.js';
import { enclosingFunction } from '../analysis/handlers.js';
import { contains, walk } from '../analysis/walk.js';
import { JSON_RPC_REQUEST_IN_TEXT } from '../analysis/text-hints.js';
import { createRule } from '../util/create-rule.js';
import { DefinitionType } from '../analysis/definition-type.js';

type Node = TSESTree.Node;

const messages = {
  reusedId: 'This retry {{how}}; a retry is a new request and needs an id of its own. {{guidance}}',
} as const;

const RETRY_FIELDS = ['inputResponses', 'requestState'] as const;
const LOOPS: ReadonlySet<string> = new Set([
  AST_NODE_TYPES.ForStatement,
  AST_NODE_TYPES.ForInStatement,
  AST_NODE_TYPES.ForOfStatement,
  AST_NODE_TYPES.WhileStatement,
  AST_NODE_TYPES.DoWhileStatement,
]);

/** Whether an object (with its spreads) has a property, directly or behind a conditional spread. */
function carries(file: FileAnalysis, object: TSESTree.ObjectExpression, key: string, depth = 0): boolean {
  if (depth > 4) return false;
  for (const property of object.properties) {
    if (property.type === AST_NODE_TYPES.Property) {
      if (staticKey(property) === key) return true;
      continue;
    }
    let argument = unwrap(property.argument);
    if (argument.type === AST_NODE_TYPES.LogicalExpression) argument = unwrap(argument.right);
    const spread = asObjectLiteral(file.scopeOf(argument), argument);
    if (spread !== undefined && carries(file, spread, key, depth + 1)) return true;
  }
  return false;
}

/**
 * A JSON-RPC request for an MRTR-eligible method (or a copy of another request, whose method comes
 * through a spread), and whether its params make it a retry.
 */
function jsonRpcRequest(file: FileAnalysis, object: TSESTree.ObjectExpression) {
  const scope = file.scopeOf(object);
  const method = staticString(scope, objectProperty(scope, object, 'method')?.value);
  const copies = object.properties.some(
    (property) =>
      property.type === AST_NODE_TYPES.SpreadElement &&
      asObjectLiteral(scope, property.argument) === undefined,
  );
  if (method === undefined ? !copies : !isMrtrEligibleMethod(method)) return undefined;
  const isJsonRpc =
    copies ||
    objectProperty(scope, object, 'jsonrpc') !== undefined ||
    objectProperty(scope, object, 'id') !== undefined;
  if (!isJsonRpc) return undefined;
  const params = asObjectLiteral(scope, objectProperty(scope, object, 'params')?.value);
  const retry = params !== undefined && RETRY_FIELDS.some((field) => carries(file, params, field));
  return { method, retry };
}

function loopAround(node: Node, stop: Node | undefined): Node | undefined {
  for (let current = node.parent; current != null && current !== stop; current = current.parent) {
    if (LOOPS.has(current.type)) return current;
  }
  return undefined;
}

export default createRule<[], keyof typeof messages>({
  name: 'no-reused-retry-id',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow retrying an MRTR request with the JSON-RPC id of the original request',
      recommended: 'recommended',
    },
    messages,
    schema: [],
  },
  create(context) {
    const file = fileAnalysis(context);
    if (!file.mayBeMcp) return {};
    const text = context.sourceCode.text;
    // A retry carries inputResponses, or a requestState next to a JSON-RPC request of its own.
    if (
      !text.includes('inputResponses') &&
      !(text.includes('requestState') && file.mentions(JSON_RPC_REQUEST_IN_TEXT))
    )
      return {};

    /** How the id of a retry repeats an earlier one, or undefined when it may be new. */
    function reuse(retry: TSESTree.ObjectExpression, method: string | undefined): string | undefined {
      const scope = file.scopeOf(retry);
      const idProperty = objectProperty(scope, retry, 'id');
      if (idProperty === undefined) {
        // `{ ...original, params: {…} }` copies the original's id.
        const spread = retry.properties.find((property) => property.type === AST_NODE_TYPES.SpreadElement);
        return spread !== undefined && asObjectLiteral(scope, spread.argument) === undefined
          ? `copies the id of ${context.sourceCode.getText(spread.argument)} through the spread`
          : undefined;
      }
      const id = unwrap(idProperty.value);
      if (id.type === AST_NODE_TYPES.MemberExpression && staticKey(id) === 'id') {
        return `reuses ${context.sourceCode.getText(id)}`;
      }
      const fn = enclosingFunction(retry);
      const loop = loopAround(retry, fn);
      const fixed = resolveConst(scope, id);
      const literal = fixed.type === AST_NODE_TYPES.Literal ? fixed.value : undefined;
      if (id.type === AST_NODE_TYPES.Identifier && literal === undefined) {
        const variable = findVariable(scope, id.name);
        const definition = variable?.defs[0];
        const constant =
          definition?.type === DefinitionType.Variable &&
          !variable?.references.some((reference) => reference.isWrite() && !reference.init);
        if (constant && loop !== undefined && !contains(loop, definition.node)) {
          return `sends the same id (${id.name}) on every round of the loop`;
        }
        if (
          constant &&
          earlierRequest(
            retry,
            method,
            (other) =>
              unwrap(other).type === AST_NODE_TYPES.Identifier &&
              (unwrap(other) as TSESTree.Identifier).name === id.name,
          )
        ) {
          return `reuses the id in ${id.name}`;
        }
        return undefined;
      }
      if (literal === undefined || literal === null) return undefined;
      if (loop !== undefined)
        return `sends the same id (${JSON.stringify(literal)}) on every round of the loop`;
      return earlierRequest(retry, method, (other) => {
        const value = resolveConst(file.scopeOf(other), other);
        return value.type === AST_NODE_TYPES.Literal && value.value === literal;
      })
        ? `reuses the id ${JSON.stringify(literal)} of the original request`
        : undefined;
    }

    /** Whether the same function sends the same method earlier with an id matching `sameId`. */
    function earlierRequest(
      retry: TSESTree.ObjectExpression,
      method: string | undefined,
      sameId: (id: Node) => boolean,
    ): boolean {
      const root = enclosingFunction(retry) ?? context.sourceCode.ast;
      let found = false;
      walk(context.sourceCode, root, (node) => {
        if (found || node.range[0] >= retry.range[0]) return false;
        if (node.type !== AST_NODE_TYPES.ObjectExpression) return true;
        const request = jsonRpcRequest(file, node);
        const scope = file.scopeOf(node);
        const id = objectProperty(scope, node, 'id');
        if (request !== undefined && request.method === method && !request.retry && id !== undefined)
          found = sameId(id.value);
        return true;
      });
      return found;
    }

    return {
      ObjectExpression(node) {
        const request = jsonRpcRequest(file, node);
        if (request === undefined || !request.retry) return;
        const how = reuse(node, request.method);
        if (how !== undefined) {
          context.report({ node, messageId: 'reusedId', data: { how, guidance: REUSED_RETRY_ID_GUIDANCE } });
        }
      },
    };
  },
});
