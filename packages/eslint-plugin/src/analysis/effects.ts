// Which calls and writes change something outside a handler, by the verbs in core: what re-running
// a handler repeats, and what code does once it believes an out-of-band step finished.
import {
  MUTATING_METHODS,
  PREDICATE_ENDINGS,
  REPEATABLE_VERBS,
  splitWordParts,
  WRITE_VERBS,
} from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESTree } from '@typescript-eslint/utils';
import { findVariable, memberPath, objectProperty, staticString, unwrap } from './ast.js';
import type { FileAnalysis } from './file-analysis.js';
import { calleeName } from './invoked-member.js';
import { contains } from './walk.js';

type Node = TSESTree.Node;

const REPEATABLE: ReadonlySet<string> = new Set(REPEATABLE_VERBS);
const WRITES: ReadonlySet<string> = new Set(WRITE_VERBS);
const MUTATORS: ReadonlySet<string> = new Set(MUTATING_METHODS);
const PREDICATES: ReadonlySet<string> = new Set(PREDICATE_ENDINGS);

function verbOf(name: string): string {
  return splitWordParts(name)[0] ?? '';
}

/** `paymentCompleted`, `isReady`: a name that asks a question rather than does something. */
function isPredicate(name: string): boolean {
  const parts = splitWordParts(name);
  return parts.length > 1 && PREDICATES.has(parts.at(-1) ?? '');
}

/**
 * Whether a call is safe to repeat: its name reads, computes, waits or asks (`paymentCompleted`), it is a `Promise.*`
 * combinator or a `console` call, a `fetch` without a writing method, or one the user allowed.
 */
export function isRepeatableCall(
  file: FileAnalysis,
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  allowed: ReadonlySet<string>,
): boolean {
  const callee = unwrap(call.callee);
  const name = calleeName(callee);
  if (name === undefined) return false;
  if (allowed.has(name)) return true;
  const root = memberPath(callee)?.[0];
  if (root === 'Promise' || root === 'console') return true;
  if (name === 'fetch' && call.type === AST_NODE_TYPES.CallExpression) {
    const init = call.arguments[1];
    const scope = file.scopeOf(call);
    const method =
      init?.type === AST_NODE_TYPES.ObjectExpression
        ? staticString(scope, objectProperty(scope, init, 'method')?.value)
        : undefined;
    return method === undefined || ['GET', 'HEAD'].includes(method.toUpperCase());
  }
  return REPEATABLE.has(verbOf(name)) || isPredicate(name);
}

/** The variable or `this` a target hangs off: `a` in `a.b.c`. */
function rootOf(target: Node): Node {
  let current = unwrap(target);
  while (current.type === AST_NODE_TYPES.MemberExpression) current = unwrap(current.object);
  return current;
}

/** Whether a target lives outside `scopeNode`: `this`, or a variable declared around it. */
export function isOutside(file: FileAnalysis, scopeNode: Node, target: Node): boolean {
  const root = rootOf(target);
  if (root.type === AST_NODE_TYPES.ThisExpression) return true;
  if (root.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(file.scopeOf(root), root.name);
  return variable !== undefined && !contains(scopeNode, variable.scope.block);
}

/**
 * Whether a call writes by its name (`store.update(…)`, `sendInvoice(…)`) or mutates an object
 * declared outside `scopeNode` (`cache.set(…)`, `audit.push(…)`).
 */
export function isWriteCall(
  file: FileAnalysis,
  call: TSESTree.CallExpression,
  scopeNode: Node,
  allowed: ReadonlySet<string>,
): boolean {
  const callee = unwrap(call.callee);
  const name = calleeName(callee);
  if (name === undefined || allowed.has(name)) return false;
  if (
    callee.type === AST_NODE_TYPES.MemberExpression &&
    MUTATORS.has(name) &&
    isOutside(file, scopeNode, callee.object)
  )
    return true;
  return WRITES.has(verbOf(name)) && !isRepeatableCall(file, call, allowed);
}
