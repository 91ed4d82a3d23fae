import { RUNTIME_PACKAGE } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { propertyNameText, unwrapExpression } from '../../analysis/syntax.js';
import type { ImportRequest } from '../../edits/imports.js';
import { reindentEdits } from '../../edits/reindent.js';
import { removeListElements, removeStatement } from '../../edits/removal.js';
import { quoteString } from '../../edits/source-style.js';
import type { TextEdit } from '../../edits/text-edit.js';
import type { HelperFunction } from './eligible-handlers.js';
import { inProcessWait } from './in-process-wait.js';
import type { PushCall } from './push-calls.js';

// A URL-mode push becomes `round.ask(key, elicitUrl({ message, url }))`. Its answer only says the
// user agreed to open the link: the handler must still decide completion from its own record of
// the out-of-band step, which a replay reads afresh on every retry. So the rewrite only happens
// where the original already checks such a record after the question; the completion notifier
// goes, because a 2026-07-28 client learns of completion by retrying, not by a notification.

/** The params `elicitUrl` takes, and those it sets itself or that 2026-07-28 no longer sends. */
const KEPT = new Set(['message', 'url']);
const DROPPED = new Set(['mode', 'elicitationId']);

const NOTIFIER = 'createElicitationCompletionNotifier';

/** The edits turning a URL-mode push into `round.ask(key, elicitUrl({ message, url }))`, or why not. */
export function urlQuestionEdits(
  context: FileContext,
  push: PushCall,
  round: string,
  key: string,
): { edits: TextEdit[]; imports: ImportRequest[] } | string {
  const params = push.params === undefined ? undefined : unwrapExpression(push.params);
  if (params === undefined || !ts.isObjectLiteralExpression(params))
    return 'URL mode: its params are not an object literal, so the codemod cannot tell its message and url apart';
  const names = params.properties.map((property) =>
    ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property)
      ? propertyNameText(property.name)
      : undefined,
  );
  const unknown = names.find((name) => name === undefined || (!KEPT.has(name) && !DROPPED.has(name)));
  if (unknown !== undefined || names.length !== params.properties.length)
    return `URL mode: its params hold ${unknown === undefined ? 'a spread or method' : `"${unknown}"`}, which elicitUrl({ message, url }) does not take`;
  if (!names.includes('message') || !names.includes('url'))
    return 'URL mode: its params lack a message or url';
  const builder = context.importFor(RUNTIME_PACKAGE, 'elicitUrl');
  const q = quoteString(context.style, key);
  const call = push.call;
  const callStart = call.getStart(context.sourceFile);
  const edits: TextEdit[] = [
    {
      start: callStart,
      end: push.params!.getStart(context.sourceFile),
      text: `${round}.ask(${q}, ${builder.local}(`,
    },
  ];
  // The params now open on the call's line: their lines move to its depth, and close it there.
  edits.push(...reindentEdits(context.sourceFile, params, params.getStart(context.sourceFile), callStart));
  edits.push({ start: push.params!.end, end: call.end, text: '))' });
  const dropped = names.flatMap((name, index) => (DROPPED.has(name!) ? [index] : []));
  edits.push(...removeListElements(context.sourceFile, params.properties, dropped));
  return { edits, imports: [builder] };
}

/** Whether a condition reads something other than the answers: a call, as in `isConnected(user)`. */
function readsServerState(condition: ts.Expression, answers: ReadonlySet<ts.Node>): boolean {
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found || answers.has(node)) return;
    if (ts.isCallExpression(node)) {
      found = true;
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(condition);
  return found;
}

/**
 * What decides a branch after `push`: an if, switch or `?:` test after it, an `&&` / `||` chain
 * after it, or the condition of a loop around it (evaluated again after each question).
 */
function conditionAfter(
  node: ts.Node,
  push: ts.CallExpression,
  file: ts.SourceFile,
): ts.Expression | undefined {
  const after = (condition: ts.Expression | undefined) =>
    condition !== undefined && condition.getStart(file) > push.end ? condition : undefined;
  if (ts.isIfStatement(node) || ts.isSwitchStatement(node)) return after(node.expression);
  if (ts.isConditionalExpression(node)) return after(node.condition);
  if (
    ts.isBinaryExpression(node) &&
    (node.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken ||
      node.operatorToken.kind === ts.SyntaxKind.BarBarToken)
  )
    return after(node.right);
  const around = push.pos >= node.pos && push.end <= node.end;
  if ((ts.isWhileStatement(node) || ts.isDoStatement(node)) && around) return node.expression;
  if (ts.isForStatement(node) && around) return node.condition;
  return undefined;
}

/** Every `createElicitationCompletionNotifier(…)` call in the handler. */
function notifierCalls(fn: HelperFunction): ts.CallExpression[] {
  const calls: ts.CallExpression[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === NOTIFIER
    )
      calls.push(node);
    ts.forEachChild(node, visit);
  };
  visit(fn);
  return calls;
}

/** `await? x.createElicitationCompletionNotifier(id)();` standing alone: the statement to remove. */
function immediateNotifierStatement(call: ts.CallExpression): ts.ExpressionStatement | undefined {
  let node: ts.Node = call.parent;
  while (ts.isParenthesizedExpression(node)) node = node.parent;
  if (!ts.isCallExpression(node) || unwrapExpression(node.expression) !== call || node.arguments.length > 0)
    return undefined;
  let outer: ts.Node = node.parent;
  while (ts.isParenthesizedExpression(outer) || ts.isAwaitExpression(outer) || ts.isVoidExpression(outer))
    outer = outer.parent;
  return ts.isExpressionStatement(outer) ? outer : undefined;
}

/**
 * What the URL-mode questions of a replayed handler need besides their own edits: the removal of
 * its completion notifiers. Or why the handler stays manual: nothing after a question checks the
 * server's own record of the out-of-band step, or a notifier is kept to be called later.
 */
export function planUrlCompletion(
  context: FileContext,
  fn: HelperFunction,
  questions: readonly PushCall[],
): TextEdit[] | string {
  const urls = questions.filter((push) => push.shape === 'elicit-url');
  if (urls.length === 0) return [];
  const file = context.sourceFile;
  const calls = new Set<ts.Node>(urls.map((push) => push.call));
  for (const push of urls) {
    let checked = false;
    const visit = (node: ts.Node): void => {
      if (checked) return;
      const condition = conditionAfter(node, push.call, file);
      if (condition !== undefined && readsServerState(condition, calls)) {
        checked = true;
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(fn);
    const waits = checked ? undefined : inProcessWait(context, fn, push.call);
    if (waits !== undefined)
      return `URL mode: after the question on line ${context.lineOf(push.call)} the handler waits in-process for the out-of-band step (it awaits ${waits.promise.text}, made before the question, on line ${context.lineOf(waits.wait)}); a retry runs the handler again, perhaps on another instance, where that promise does not exist: on the retry, decide completion from the record the step writes (your store, or @mcp-mrtr/runtime/url-mode) by hand`;
    if (!checked)
      return `URL mode: after the question on line ${context.lineOf(push.call)} no condition reads the server's own record of the out-of-band step, so completion would be decided from accept alone (which only means the user agreed to open the link); add that check on the retry by hand (see @mcp-mrtr/runtime/url-mode)`;
  }
  const edits: TextEdit[] = [];
  for (const call of notifierCalls(fn)) {
    const statement = immediateNotifierStatement(call);
    if (statement === undefined)
      return `URL mode: the completion notifier on line ${context.lineOf(call)} is kept to be called later, so something outside the handler decides completion; decide it on the retry from server-side state by hand`;
    edits.push(removeStatement(file, statement));
  }
  return edits;
}

/** The completion notifiers {@link planUrlCompletion} removes from a function that asks in URL mode. */
export function removedNotifiers(fn: HelperFunction, questions: readonly PushCall[]): ts.CallExpression[] {
  return questions.some((push) => push.shape === 'elicit-url') ? notifierCalls(fn) : [];
}

/** Whether `node` is one of `notifiers` or the call of the notifier it returns (`create…(id)()`). */
export function isNotifierUse(node: ts.Node, notifiers: readonly ts.CallExpression[]): boolean {
  if (!ts.isCallExpression(node)) return false;
  const callee = unwrapExpression(node.expression);
  return notifiers.some((call) => call === node || call === callee);
}
