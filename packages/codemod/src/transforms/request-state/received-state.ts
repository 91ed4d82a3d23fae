import { clientRequestMethod, RECEIVED_REQUEST_STATE_PROPERTY } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import {
  findProperty,
  memberKey,
  propertyValue,
  staticString,
  unwrapValue,
  valueSymbol,
} from '../../analysis/syntax.js';

// Client code that inspects the requestState a server sent: the lint's isReceivedRequestState
// (eslint-plugin/src/analysis/client-requests.ts) on TypeScript's tree. Which calls are client
// requests is core's clientRequestMethod, so the two cannot drift on it; the walks differ only
// as ESTree and TypeScript's tree do.

const MAX_DEPTH = 3;

/** Every value a variable is given: its initializer and each later `name = value`. */
function valuesOf(checker: ts.TypeChecker, declaration: ts.VariableDeclaration): ts.Expression[] | undefined {
  if (!ts.isIdentifier(declaration.name)) return undefined;
  const symbol = checker.getSymbolAtLocation(declaration.name);
  const values = declaration.initializer === undefined ? [] : [declaration.initializer];
  const visit = (node: ts.Node): void => {
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isIdentifier(node.left) &&
      checker.getSymbolAtLocation(node.left) === symbol
    )
      values.push(node.right);
    ts.forEachChild(node, visit);
  };
  visit(declaration.getSourceFile());
  return values;
}

/** `client.callTool(…)`, `client.request({ method: 'tools/call', … })`, `client.request('tools/call', …)`. */
function isClientRequest(call: ts.CallExpression): boolean {
  const member = memberKey(unwrapValue(call.expression));
  if (member === undefined) return false;
  const first = call.arguments[0];
  const object = first === undefined ? undefined : unwrapValue(first);
  const method =
    object !== undefined && ts.isObjectLiteralExpression(object)
      ? staticString(propertyOf(object, 'method'))
      : staticString(first);
  return clientRequestMethod(member, method) !== undefined;
}

function propertyOf(object: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  const property = findProperty(object, name);
  return property === undefined ? undefined : propertyValue(property);
}

/** The single variable declaration an identifier reads, when it is one. */
function variableOf(checker: ts.TypeChecker, identifier: ts.Identifier): ts.Declaration | undefined {
  const declarations = valueSymbol(checker, identifier)?.declarations ?? [];
  return declarations.length === 1 ? declarations[0] : undefined;
}

/** The (awaited) result of a client request, directly or through a binding that only ever holds one. */
function isClientResult(checker: ts.TypeChecker, node: ts.Expression, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  const current = unwrapValue(node);
  if (ts.isCallExpression(current)) return isClientRequest(current);
  if (!ts.isIdentifier(current)) return false;
  const declaration = variableOf(checker, current);
  if (declaration === undefined || !ts.isVariableDeclaration(declaration)) return false;
  const values = valuesOf(checker, declaration);
  return (
    values !== undefined &&
    values.length > 0 &&
    values.every((value) => isClientResult(checker, value, depth + 1))
  );
}

/**
 * Whether an expression is a requestState a client received: `result.requestState` of a client
 * result (with a `?? fallback`), `const { requestState } = result`, or a binding that only ever
 * holds one. Client code that decodes it inspects it (`no-request-state-inspection`); it is not
 * a server reading state it must verify.
 */
export function isReceivedRequestState(checker: ts.TypeChecker, node: ts.Expression, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  const current = unwrapValue(node);
  if (ts.isBinaryExpression(current) && isLogicalOperator(current.operatorToken.kind))
    return isReceivedRequestState(checker, current.left, depth + 1);
  if (ts.isPropertyAccessExpression(current) || ts.isElementAccessExpression(current))
    return (
      memberKey(current) === RECEIVED_REQUEST_STATE_PROPERTY && isClientResult(checker, current.expression)
    );
  if (!ts.isIdentifier(current)) return false;
  const declaration = variableOf(checker, current);
  if (declaration === undefined) return false;
  if (ts.isBindingElement(declaration)) {
    const variable = declaration.parent.parent;
    return (
      ts.isObjectBindingPattern(declaration.parent) &&
      ts.isVariableDeclaration(variable) &&
      variable.initializer !== undefined &&
      isClientResult(checker, variable.initializer)
    );
  }
  if (!ts.isVariableDeclaration(declaration)) return false;
  const values = valuesOf(checker, declaration);
  return (
    values !== undefined &&
    values.length > 0 &&
    values.every((value) => isReceivedRequestState(checker, value, depth + 1))
  );
}

function isLogicalOperator(kind: ts.SyntaxKind): boolean {
  return (
    kind === ts.SyntaxKind.AmpersandAmpersandToken ||
    kind === ts.SyntaxKind.BarBarToken ||
    kind === ts.SyntaxKind.QuestionQuestionToken
  );
}
