// Client code that sends MRTR-eligible requests: the params it attaches, and the results it gets back.
import { CLIENT_REQUEST_CALLS, clientRequestMethod, RECEIVED_REQUEST_STATE_PROPERTY } from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESTree } from '@typescript-eslint/utils';
import { asObjectLiteral, findVariable, objectProperty, staticKey, staticString, unwrap } from './ast.js';
import type { FileAnalysis } from './file-analysis.js';
import { runsAfterInputRequiredTest } from './result-tests.js';
import { DefinitionType } from './definition-type.js';

type Node = TSESTree.Node;

export interface ClientRequest {
  readonly call: TSESTree.CallExpression;
  readonly method: string;
  /** The params object literal, when it is one. */
  readonly params: TSESTree.ObjectExpression | undefined;
}

/**
 * A client sending an MRTR-eligible request: `client.request({ method: 'tools/call', params })`,
 * `client.request('tools/call', params)`, `client.callTool(params)` and the like.
 */
export function clientRequest(file: FileAnalysis, call: TSESTree.CallExpression): ClientRequest | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const name = staticKey(callee);
  if (name === undefined || !(name in CLIENT_REQUEST_CALLS)) return undefined;
  const scope = file.scopeOf(call);
  const [first, second] = call.arguments;
  if (first === undefined || first.type === AST_NODE_TYPES.SpreadElement) return undefined;
  const fixed = clientRequestMethod(name, undefined);
  if (fixed !== undefined) return { call, method: fixed, params: asObjectLiteral(scope, first) };
  const methodString = staticString(scope, first);
  if (methodString !== undefined) {
    const method = clientRequestMethod(name, methodString);
    if (method === undefined) return undefined;
    const params =
      second === undefined || second.type === AST_NODE_TYPES.SpreadElement
        ? undefined
        : asObjectLiteral(scope, second);
    return { call, method, params };
  }
  const request = asObjectLiteral(scope, first);
  const method =
    request &&
    clientRequestMethod(name, staticString(scope, objectProperty(scope, request, 'method')?.value));
  if (request === undefined || method === undefined) return undefined;
  return { call, method, params: asObjectLiteral(scope, objectProperty(scope, request, 'params')?.value) };
}

/** Whether an expression is the (awaited) result of a client request, directly or through a binding. */
export function isClientResult(file: FileAnalysis, node: Node, depth = 0): boolean {
  if (depth > 3) return false;
  const current = unwrap(node);
  if (current.type === AST_NODE_TYPES.CallExpression) return clientRequest(file, current) !== undefined;
  if (current.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(file.scopeOf(current), current.name);
  const definition = variable?.defs[0];
  if (variable === undefined || definition?.type !== DefinitionType.Variable) return false;
  if (definition.node.id.type !== AST_NODE_TYPES.Identifier) return false;
  // Every value the binding is given (its initializer and later assignments) is a client result.
  const values = variable.references
    .filter((reference) => reference.isWrite())
    .map((reference) => reference.writeExpr)
    .filter((value): value is TSESTree.Expression => value != null);
  return values.length > 0 && values.every((value) => isClientResult(file, value, depth + 1));
}

/**
 * Whether an object literal ends up as the params of a client request, directly or as a spread
 * piece of them (`...(state !== undefined && { requestState: state })`).
 */
export function isClientRequestParams(file: FileAnalysis, object: TSESTree.ObjectExpression): boolean {
  let node: Node = object;
  for (let depth = 0; depth < 6; depth++) {
    const parent: Node | undefined = node.parent;
    if (parent == null) return false;
    if (
      parent.type === AST_NODE_TYPES.LogicalExpression ||
      parent.type === AST_NODE_TYPES.ConditionalExpression ||
      parent.type === AST_NODE_TYPES.TSAsExpression ||
      parent.type === AST_NODE_TYPES.SpreadElement
    ) {
      node = parent;
      continue;
    }
    if (parent.type === AST_NODE_TYPES.ObjectExpression && node.type === AST_NODE_TYPES.SpreadElement) {
      node = parent;
      continue;
    }
    if (parent.type === AST_NODE_TYPES.CallExpression) {
      return clientRequest(file, parent)?.params === unwrap(node);
    }
    if (parent.type === AST_NODE_TYPES.Property && staticKey(parent) === 'params') {
      let call: Node | undefined = parent.parent.parent;
      while (
        call?.type === AST_NODE_TYPES.TSAsExpression ||
        call?.type === AST_NODE_TYPES.TSSatisfiesExpression
      )
        call = call.parent;
      return (
        call?.type === AST_NODE_TYPES.CallExpression && clientRequest(file, call)?.params === unwrap(node)
      );
    }
    return false;
  }
  return false;
}

/**
 * `result.requestState` of a client result (or of any `r` tested `r.resultType === 'input_required'`
 * first), or a binding that only ever holds one.
 */
export function isReceivedRequestState(file: FileAnalysis, node: Node, depth = 0): boolean {
  if (depth > 3) return false;
  const current = unwrap(node);
  // `result.requestState ?? ''`: the received value, with a fallback.
  if (current.type === AST_NODE_TYPES.LogicalExpression)
    return isReceivedRequestState(file, current.left, depth + 1);
  if (current.type === AST_NODE_TYPES.MemberExpression) {
    return (
      staticKey(current) === RECEIVED_REQUEST_STATE_PROPERTY &&
      (isClientResult(file, current.object) || runsAfterInputRequiredTest(file, current))
    );
  }
  if (current.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(file.scopeOf(current), current.name);
  const definition = variable?.defs[0];
  if (variable === undefined || definition?.type !== DefinitionType.Variable) return false;
  // `const { requestState } = result`
  if (definition.node.id.type === AST_NODE_TYPES.ObjectPattern) {
    return definition.node.init !== null && isClientResult(file, definition.node.init);
  }
  const values = variable.references
    .filter((reference) => reference.isWrite())
    .map((reference) => reference.writeExpr)
    .filter((value): value is TSESTree.Expression => value != null);
  return values.length > 0 && values.every((value) => isReceivedRequestState(file, value, depth + 1));
}
