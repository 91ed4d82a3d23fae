import {
  MUTATING_METHODS,
  PER_CALL_VALUE_CALLS,
  PER_CALL_VALUE_CONSTRUCTORS,
  REPEATABLE_VERBS,
  splitWordParts,
  WRITE_VERBS,
} from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import { unwrapExpression } from '../../analysis/syntax.js';

// A replayed handler runs from the top on every round, so what it does before its last question
// happens once per round. These are the calls whose repetition would show: writes, sends,
// payments, and values that differ per call (core's handler-effects catalog).

/** Logging and notification sends: the logging transform migrates them, and repeating them is harmless. */
const LOG_CALLS = new Set([
  'sendLoggingMessage',
  'sendNotification',
  'notification',
  'notify',
  'log',
  'logToStderr',
]);

function leadingVerb(name: string): string {
  return splitWordParts(name)[0]?.toLowerCase() ?? '';
}

function calleeNames(callee: ts.Expression): { dotted: string; last: string } | undefined {
  const inner = unwrapExpression(callee);
  if (ts.isIdentifier(inner)) return { dotted: inner.text, last: inner.text };
  if (ts.isPropertyAccessExpression(inner)) {
    const object = unwrapExpression(inner.expression);
    const prefix = ts.isIdentifier(object) ? `${object.text}.` : '';
    return { dotted: `${prefix}${inner.name.text}`, last: inner.name.text };
  }
  return undefined;
}

/**
 * Whether the object a method mutates is the handler's own (`const labels = []` in its body): a
 * replay builds it again from scratch, so mutating it again changes nothing outside.
 */
function isLocal(object: ts.Expression, local: (declaration: ts.Node) => boolean): boolean {
  const inner = unwrapExpression(object);
  if (!ts.isIdentifier(inner)) return false;
  return local(inner);
}

/** Whether one call (not what it contains) repeats visibly when the handler runs again. */
export function isReplayedEffect(node: ts.Node, local: (declaration: ts.Node) => boolean): boolean {
  if (ts.isNewExpression(node)) {
    const names = calleeNames(node.expression);
    return (
      names !== undefined &&
      PER_CALL_VALUE_CONSTRUCTORS.includes(names.last) &&
      (node.arguments?.length ?? 0) === 0
    );
  }
  if (!ts.isCallExpression(node)) return false;
  const names = calleeNames(node.expression);
  if (names === undefined) return ts.isAwaitExpression(node.parent);
  // Promise combinators only wait for what they are given, which is checked on its own.
  if (names.dotted.startsWith('Promise.')) return false;
  // A log line or progress notification written again by a replay misleads nobody.
  if (LOG_CALLS.has(names.last) || names.dotted.startsWith('console.')) return false;
  if (PER_CALL_VALUE_CALLS.includes(names.dotted) || PER_CALL_VALUE_CALLS.includes(names.last)) return true;
  const verb = leadingVerb(names.last);
  if (WRITE_VERBS.includes(verb)) return true;
  const callee = unwrapExpression(node.expression);
  if (MUTATING_METHODS.includes(names.last) && ts.isPropertyAccessExpression(callee))
    return !isLocal(callee.expression, local);
  // An awaited call that does not say it only reads counts as an effect (core: REPEATABLE_VERBS).
  return ts.isAwaitExpression(node.parent) && !REPEATABLE_VERBS.includes(verb);
}

/** The first replayed effect inside `node` (itself included). */
export function firstEffectIn(
  node: ts.Node,
  ignore: (candidate: ts.Node) => boolean,
  local: (declaration: ts.Node) => boolean = () => false,
): ts.Node | undefined {
  let found: ts.Node | undefined;
  const visit = (current: ts.Node): void => {
    if (found !== undefined || ignore(current)) return;
    if (isReplayedEffect(current, local)) {
      found = current;
      return;
    }
    ts.forEachChild(current, visit);
  };
  visit(node);
  return found;
}
