import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { identifiersReferringTo } from '../../analysis/symbol-references.js';
import { enclosingFunction, outermostParentheses, unwrapExpression } from '../../analysis/syntax.js';

// How a handler waits for a question's answer. Journaled replay suspends the handler where it
// awaits an ask that has no answer yet, so a question can become `round.ask` only when the
// handler surely awaits it on the path it was asked on. Awaited where asked, returned from an
// async function, chained with a `.then(onFulfilled)` that is awaited, started together in an
// awaited `Promise.all`, or kept in a `const` that a later statement of the same block awaits
// before anything can leave the block: each of these waits for the same answer, and a rejection
// (the suspension) reaches the handler exactly as the original's rejection did.

/** Where the function waits for the answer: the node a replay suspends at. */
export interface AnswerWait {
  /** The `await` or `return` that yields the answer. */
  readonly at: ts.Node;
  /** Whether the question is kept in a variable and awaited by a later statement. */
  readonly kept: boolean;
}

export function skipParentheses(node: ts.Node): ts.Node {
  let current = node.parent;
  while (ts.isParenthesizedExpression(current)) current = current.parent;
  return current;
}

/** Whether the innermost function around `node` is `async`. */
function inAsyncFunction(node: ts.Node): boolean {
  const fn = enclosingFunction(node);
  return (
    fn !== undefined &&
    (ts.getModifiers(fn) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.AsyncKeyword)
  );
}

/** `await x`, or `return x` from an async function (which resolves to what awaiting x gives). */
function awaitOrReturn(node: ts.Expression): ts.Node | undefined {
  const parent = skipParentheses(node);
  if (ts.isAwaitExpression(parent)) return parent;
  const returned =
    ts.isReturnStatement(parent) ||
    (ts.isArrowFunction(parent) && parent.body === outermostParentheses(node));
  return returned && inAsyncFunction(node) ? parent : undefined;
}

/** `Promise.all([x, …])` / `Promise.allSettled`, `Promise.race` / `Promise.any` around an element. */
function combinatorOf(element: ts.Expression): { call: ts.CallExpression; name: string } | undefined {
  const list = skipParentheses(element);
  if (!ts.isArrayLiteralExpression(list)) return undefined;
  const call = skipParentheses(list);
  if (!ts.isCallExpression(call) || call.arguments[0] !== outermostParentheses(list)) return undefined;
  const callee = unwrapExpression(call.expression);
  if (
    !ts.isPropertyAccessExpression(callee) ||
    !ts.isIdentifier(callee.expression) ||
    callee.expression.text !== 'Promise'
  )
    return undefined;
  return { call, name: callee.name.text };
}

/** `await Promise.all([x, …])`: started together, each answer awaited, asked in one round. */
function awaitedTogether(element: ts.Expression): ts.Node | undefined {
  const combinator = combinatorOf(element);
  if (combinator === undefined || (combinator.name !== 'all' && combinator.name !== 'allSettled'))
    return undefined;
  return awaitOrReturn(combinator.call);
}

/** `await Promise.all([askA, askB])`: the two push calls are asked in one round. */
export function isAwaitedTogether(call: ts.CallExpression): boolean {
  return awaitedTogether(call) !== undefined;
}

/** `push(…).then(onFulfilled)`: the call chained on the question, if it is one. */
export function thenCall(call: ts.Expression): ts.CallExpression | undefined {
  const access = skipParentheses(call);
  if (!ts.isPropertyAccessExpression(access) || access.name.text !== 'then') return undefined;
  const chained = access.parent;
  return ts.isCallExpression(chained) && chained.expression === access ? chained : undefined;
}

/** Where `expression`'s value is waited for right where it is: awaited, returned, or awaited together. */
function waitedRightThere(expression: ts.Expression): ts.Node | undefined {
  return awaitOrReturn(expression) ?? awaitedTogether(expression);
}

function isShortCircuit(kind: ts.SyntaxKind): boolean {
  return (
    kind === ts.SyntaxKind.AmpersandAmpersandToken ||
    kind === ts.SyntaxKind.BarBarToken ||
    kind === ts.SyntaxKind.QuestionQuestionToken ||
    kind === ts.SyntaxKind.AmpersandAmpersandEqualsToken ||
    kind === ts.SyntaxKind.BarBarEqualsToken ||
    kind === ts.SyntaxKind.QuestionQuestionEqualsToken
  );
}

/** Whether `node` is the await of `expression`'s answer with nothing conditional between it and `statement`. */
function unconditionallyIn(node: ts.Node, statement: ts.Statement): boolean {
  for (let current = node; current !== statement; current = current.parent) {
    const parent = current.parent;
    const fine =
      ts.isParenthesizedExpression(parent) ||
      ts.isAwaitExpression(parent) ||
      (ts.isPropertyAccessExpression(parent) && parent.expression === current) ||
      (ts.isElementAccessExpression(parent) && parent.expression === current) ||
      (ts.isVariableDeclaration(parent) && parent.initializer === current) ||
      (ts.isIfStatement(parent) && parent.expression === current) ||
      (ts.isSwitchStatement(parent) && parent.expression === current) ||
      (ts.isBinaryExpression(parent) &&
        (parent.left === current || !isShortCircuit(parent.operatorToken.kind))) ||
      ts.isVariableDeclarationList(parent) ||
      ts.isVariableStatement(parent) ||
      ts.isExpressionStatement(parent) ||
      ts.isReturnStatement(parent);
    if (!fine) return false;
  }
  return true;
}

/** Whether a statement can leave its block or the function: `return`, `throw`, `break`, `continue`. */
function mayLeave(statement: ts.Node): boolean {
  const visit = (node: ts.Node): boolean => {
    if (
      ts.isReturnStatement(node) ||
      ts.isThrowStatement(node) ||
      ts.isBreakStatement(node) ||
      ts.isContinueStatement(node)
    )
      return true;
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return false;
    return ts.forEachChild(node, visit) ?? false;
  };
  return visit(statement);
}

/** The statement of `block` that holds `node`, if `node` is in one of its statements. */
function statementOf(node: ts.Node, block: ts.Block): ts.Statement | undefined {
  for (let current: ts.Node = node; current.parent !== undefined; current = current.parent) {
    if (current.parent === block) return current as ts.Statement;
    if (ts.isFunctionLike(current)) return undefined;
  }
  return undefined;
}

/**
 * `const pending = push(…)` then, later in the same block, `await pending` (or `await
 * Promise.all([pending, …])`): where it is awaited, or why the codemod cannot prove that it is
 * awaited on every path before the handler goes on with other things.
 */
function keptQuestionWait(context: FileContext, question: ts.Expression): AnswerWait | string | undefined {
  const declaration = skipParentheses(question);
  if (!ts.isVariableDeclaration(declaration) || declaration.initializer !== outermostParentheses(question))
    return undefined;
  const kept = 'its promise is kept in a variable';
  const list = declaration.parent;
  const statement = list.parent;
  if (
    !ts.isIdentifier(declaration.name) ||
    !ts.isVariableDeclarationList(list) ||
    (list.flags & ts.NodeFlags.Const) === 0 ||
    !ts.isVariableStatement(statement) ||
    !ts.isBlock(statement.parent)
  )
    return `${kept} that is not a plain const of a block; await it where it is asked`;
  const name = declaration.name;
  const block = statement.parent;
  const symbol = context.checker.getSymbolAtLocation(name);
  const first =
    symbol === undefined ? undefined : identifiersReferringTo(context.checker, block, symbol, name)[0];
  if (first === undefined)
    return `${kept} (${name.text}) that nothing awaits, so no result can carry the question`;
  const wait = waitedRightThere(first);
  const line = ` (line ${context.lineOf(first)})`;
  if (wait === undefined)
    return `${kept} (${name.text}) whose first use${line} does not await it; await it there, or where it is asked`;
  const awaiting = statementOf(wait, block);
  if (awaiting === undefined || !unconditionallyIn(wait, awaiting))
    return `${kept} (${name.text}) awaited where the codemod cannot tell it runs on every path${line}; await it where it is asked`;
  const between = block.statements.slice(
    block.statements.indexOf(statement) + 1,
    block.statements.indexOf(awaiting),
  );
  const leaving = between.find(mayLeave);
  if (leaving !== undefined)
    return `${kept} (${name.text}) and the function may leave before awaiting it (line ${context.lineOf(leaving)}); await it where it is asked`;
  return { at: wait, kept: true };
}

/**
 * Where the handler waits for a question's answer, or why it does not wait for it in a way a
 * replay can suspend at.
 */
export function answerWait(context: FileContext, call: ts.CallExpression): AnswerWait | string {
  const direct = waitedRightThere(call);
  if (direct !== undefined) return { at: direct, kept: false };
  const chained = thenCall(call);
  if (chained !== undefined && chained.arguments.length !== 1)
    return "its promise is chained with .then(onFulfilled, onRejected), whose rejection handler would catch the replay's suspension; await the question and handle errors with try/catch";
  const question = chained ?? call;
  const combinator = combinatorOf(question);
  if (combinator !== undefined && (combinator.name === 'race' || combinator.name === 'any'))
    return `it races other promises (Promise.${combinator.name}): under MRTR the client answers a round's questions together, so which answer came first cannot be kept; ask the questions with Promise.all, or one at a time`;
  if (chained !== undefined) {
    const wait = waitedRightThere(chained);
    if (wait !== undefined) return { at: wait, kept: false };
  }
  const kept = keptQuestionWait(context, question);
  if (kept !== undefined) return kept;
  const parent = skipParentheses(question);
  if (ts.isVoidExpression(parent))
    return 'it is fire-and-forget (`void`): nothing waits for the answer, so no result can carry the question';
  if (ts.isExpressionStatement(parent))
    return 'its promise is dropped: nothing waits for the answer, so no result can carry the question';
  if (ts.isReturnStatement(parent) || ts.isArrowFunction(parent))
    return 'its promise is returned from a function that is not async, so the codemod cannot tell it is awaited; make the function async or await it where it is asked';
  if (chained !== undefined)
    return 'its promise is chained with .then() whose result is not awaited or returned right there; await the chain';
  return 'its promise is passed on rather than awaited where it is asked; await it first';
}

/**
 * The awaits of the questions (push calls or helper calls) that are kept in a variable: a replay
 * suspends there, so what runs between asking and awaiting counts as running before a question.
 */
export function keptQuestionWaits(context: FileContext, calls: readonly ts.CallExpression[]): ts.Node[] {
  return calls.flatMap((call) => {
    const wait = answerWait(context, call);
    return typeof wait !== 'string' && wait.kept ? [wait.at] : [];
  });
}
