import { ts } from 'ts-morph';
import { findProperty, propertyValue, staticString, unwrapExpression } from '../../analysis/syntax.js';

/** A call of the form `receiver.name(...)` (or `receiver?.name(...)`). */
export interface MemberCall {
  readonly call: ts.CallExpression;
  readonly access: ts.PropertyAccessExpression;
  readonly name: string;
}

export function asMemberCall(node: ts.Node): MemberCall | undefined {
  if (!ts.isCallExpression(node)) return undefined;
  const callee = unwrapExpression(node.expression);
  if (!ts.isPropertyAccessExpression(callee) || !ts.isIdentifier(callee.name)) return undefined;
  return { call: node, access: callee, name: callee.name.text };
}

/** The members that send a notification object: v1 `notification`/`sendNotification`, v2 `notify`. */
export const NOTIFICATION_SENDERS = new Set(['notification', 'sendNotification', 'notify']);

/** `{ method: '<literal>', params }` as the first argument of a notification send. */
export interface NotificationArgument {
  readonly object: ts.ObjectLiteralExpression;
  readonly method: string;
  readonly params: ts.Expression | undefined;
}

export function notificationArgument(call: ts.CallExpression): NotificationArgument | undefined {
  const first = call.arguments[0];
  if (first === undefined) return undefined;
  const object = unwrapExpression(first);
  if (!ts.isObjectLiteralExpression(object)) return undefined;
  const methodProperty = findProperty(object, 'method');
  const method = methodProperty === undefined ? undefined : staticString(propertyValue(methodProperty));
  if (method === undefined) return undefined;
  const paramsProperty = findProperty(object, 'params');
  return { object, method, params: paramsProperty === undefined ? undefined : propertyValue(paramsProperty) };
}

/**
 * How a call's promise is consumed when nothing uses its value: the statement holds the call
 * alone, awaited, voided, or with a `.catch(handler)`. `outer` is where the statement's
 * expression starts; `catchCall` is the `.catch(…)` call to drop, if any.
 */
export interface DiscardedCall {
  readonly statement: ts.ExpressionStatement;
  readonly outer: ts.Expression;
  readonly catchCall?: ts.CallExpression;
}

export function discardedCall(call: ts.CallExpression): DiscardedCall | undefined {
  let node: ts.Expression = call;
  let catchCall: ts.CallExpression | undefined;
  const climb = (): ts.Node => {
    let parent = node.parent;
    while (ts.isParenthesizedExpression(parent)) {
      node = parent;
      parent = parent.parent;
    }
    return parent;
  };
  let parent = climb();
  if (
    ts.isPropertyAccessExpression(parent) &&
    parent.expression === node &&
    parent.name.text === 'catch' &&
    ts.isCallExpression(parent.parent) &&
    parent.parent.expression === parent
  ) {
    catchCall = parent.parent;
    node = catchCall;
    parent = climb();
  }
  if (ts.isAwaitExpression(parent) || ts.isVoidExpression(parent)) {
    node = parent;
    parent = climb();
  }
  if (!ts.isExpressionStatement(parent)) return undefined;
  return catchCall === undefined
    ? { statement: parent, outer: node }
    : { statement: parent, outer: node, catchCall };
}
