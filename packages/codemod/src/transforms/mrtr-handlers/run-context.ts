import { CLIENT_NOTIFICATION_SCHEMA_METHODS } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { staticString, unwrapExpression } from '../../analysis/syntax.js';

// Where a callback that is not an MCP request handler runs, said the way its author knows it: an
// HTTP route, a notification handler, a lifecycle hook, a timer, a test. Under 2026-07-28 a server
// asks only while it answers a tools/call, prompts/get or resources/read request, so a question
// in any of these has no request to answer input_required to.

const TIMERS = new Set(['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask']);
/** Test runners' callbacks (vitest, jest, mocha, node:test): test code, not a server's handler. */
const TEST_CALLBACKS = new Set([
  'test',
  'it',
  'describe',
  'suite',
  'beforeAll',
  'beforeEach',
  'afterAll',
  'afterEach',
  'before',
  'after',
  'bench',
]);
/** Route methods of Express, Fastify, Hono, Koa routers and the like. */
const HTTP_ROUTE_METHODS = new Set([
  'get',
  'post',
  'put',
  'patch',
  'delete',
  'del',
  'all',
  'options',
  'head',
]);
const LIFECYCLE_HOOKS = new Set(['oninitialized', 'onclose', 'onerror']);

const MOVE_INTO_A_TOOL =
  'a server asks only while it answers a tools/call, prompts/get or resources/read request; move the question into the tool that needs the answer';

function calleeName(context: FileContext, call: ts.CallExpression): string {
  const callee = unwrapExpression(call.expression);
  return ts.isPropertyAccessExpression(callee) ? callee.name.text : context.textOf(callee);
}

/** `notifications/roots/list_changed` for `setNotificationHandler(RootsListChangedNotificationSchema, …)`. */
function notificationMethod(context: FileContext, first: ts.Expression | undefined): string | undefined {
  if (first === undefined) return undefined;
  const literal = staticString(first);
  if (literal !== undefined) return literal;
  const inner = unwrapExpression(first);
  const name = ts.isPropertyAccessExpression(inner) ? inner.name.text : context.textOf(inner);
  return CLIENT_NOTIFICATION_SCHEMA_METHODS[name] ?? name;
}

/** Test runners' callbacks that run a test's code: a test, or its setup and teardown (not `describe`'s). */
const TEST_BODIES = new Set([...TEST_CALLBACKS].filter((name) => name !== 'describe' && name !== 'suite'));

/**
 * Whether `fn` is a test's body: a function passed straight to `it(…)`, `test(…)`, `beforeEach(…)`
 * and the like, where a call of a migrated helper can be given a test round.
 */
export function isTestBody(
  context: FileContext,
  fn: ts.Node,
): fn is ts.ArrowFunction | ts.FunctionExpression {
  if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) return false;
  let outer: ts.Node = fn;
  while (ts.isParenthesizedExpression(outer.parent)) outer = outer.parent;
  const call = outer.parent;
  return (
    ts.isCallExpression(call) &&
    call.arguments.includes(outer as ts.Expression) &&
    TEST_BODIES.has(calleeName(context, call))
  );
}

/** Where a callback passed to `call` (which is not an SDK request registration) runs. */
export function callbackContext(context: FileContext, call: ts.CallExpression): string {
  const callee = calleeName(context, call);
  if (TEST_CALLBACKS.has(callee))
    return `it runs in a test (a callback passed to ${callee}()), not in a server's handler; update the test with the server it tests`;
  if (TIMERS.has(callee)) return `it runs on a timer (${callee}), outside any request`;
  if (callee === 'setNotificationHandler') {
    const method = notificationMethod(context, call.arguments[0]);
    return `it runs in a notification handler (${method ?? 'a notification'}), which has no result to carry a question`;
  }
  const [path] = call.arguments;
  const route = path === undefined ? undefined : staticString(path);
  if (HTTP_ROUTE_METHODS.has(callee) && route !== undefined && route.startsWith('/')) {
    const receiver = unwrapExpression(call.expression);
    const owner = ts.isPropertyAccessExpression(receiver) ? `${context.textOf(receiver.expression)}.` : '';
    return `it runs in an HTTP route handler (${owner}${callee}('${route}')), not in an MCP request: ${MOVE_INTO_A_TOOL}`;
  }
  return `it runs in a callback passed to ${callee}(), which the handler cannot resume; move the question into the handler's own body`;
}

/** Where a function assigned to `target.hook` runs. */
export function assignedContext(hook: string): string {
  return LIFECYCLE_HOOKS.has(hook)
    ? `it runs in ${hook}, at connection time, outside any request`
    : `it runs in a function assigned to ${hook}, which the codemod does not follow`;
}
