import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { unwrapExpression } from '../../analysis/syntax.js';
import type { HandlerFunction } from './eligible-handlers.js';
import type { PushCall } from './push-calls.js';
import { PurityProof } from './pure-code.js';
import type { Asking } from './replay-handler.js';

// Which handlers the explicit style can express: every question a top-level
// `const x = await push(…)` of the handler's body, in order, and everything before the last one
// proven pure (pure-code.ts): the explicit style has no journal, so a re-run from the top repeats
// whatever comes first. `--style explicit` may also move an effect after
// the last question, when no question and no exit depends on it.

/** One question of an explicit handler: its push call and the statement that awaits it. */
export interface ExplicitQuestion {
  readonly push: PushCall;
  readonly statement: ts.VariableStatement;
  readonly declaration: ts.VariableDeclaration;
}

/** The flow the explicit writer rewrites: questions grouped by round, and the effects it moves. */
export interface ExplicitShape {
  /** Questions asked together in one round; a later group needs an earlier group's answers. */
  readonly rounds: readonly (readonly ExplicitQuestion[])[];
  /** Statements with a side effect before the last question, moved after it, in order. */
  readonly moved: readonly ts.ExpressionStatement[];
}

/** The `const x = await push(…)` statement of the handler's body that asks `push`, if it is one. */
function questionStatement(body: ts.Block, push: PushCall): ExplicitQuestion | undefined {
  let node: ts.Node = push.call.parent;
  while (ts.isParenthesizedExpression(node)) node = node.parent;
  if (!ts.isAwaitExpression(node)) return undefined;
  node = node.parent;
  while (ts.isParenthesizedExpression(node)) node = node.parent;
  if (!ts.isVariableDeclaration(node)) return undefined;
  const list = node.parent;
  const statement = list.parent;
  if (
    !ts.isVariableDeclarationList(list) ||
    list.declarations.length !== 1 ||
    (list.flags & ts.NodeFlags.Const) === 0 ||
    !ts.isVariableStatement(statement) ||
    statement.parent !== body
  )
    return undefined;
  return { push, statement, declaration: node };
}

/** Whether `node` holds a `return` or `throw` of the handler itself (not of a nested function). */
function exits(node: ts.Node): boolean {
  if (ts.isReturnStatement(node) || ts.isThrowStatement(node)) return true;
  if (ts.isFunctionLike(node)) return false;
  return ts.forEachChild(node, exits) ?? false;
}

/** The symbols of the identifiers in `node`. */
function symbolsIn(context: FileContext, node: ts.Node): Set<ts.Symbol> {
  const symbols = new Set<ts.Symbol>();
  const visit = (current: ts.Node): void => {
    if (ts.isIdentifier(current)) {
      const symbol = context.checker.getSymbolAtLocation(current);
      if (symbol !== undefined) symbols.add(symbol);
    }
    ts.forEachChild(current, visit);
  };
  visit(node);
  return symbols;
}

/** The symbols a declaration binds (`const x`, `const { a, b }`). */
function declaredSymbols(context: FileContext, declaration: ts.VariableDeclaration): Set<ts.Symbol> {
  const symbols = new Set<ts.Symbol>();
  const visit = (name: ts.BindingName): void => {
    if (ts.isIdentifier(name)) {
      const symbol = context.checker.getSymbolAtLocation(name);
      if (symbol !== undefined) symbols.add(symbol);
      return;
    }
    for (const element of name.elements) if (!ts.isOmittedExpression(element)) visit(element.name);
  };
  visit(declaration.name);
  return symbols;
}

/** The identifier an expression is rooted in: `world` in `world.log.lines`. */
function rootIdentifier(expression: ts.Expression): ts.Identifier | undefined {
  let current = unwrapExpression(expression);
  while (
    ts.isPropertyAccessExpression(current) ||
    ts.isElementAccessExpression(current) ||
    ts.isCallExpression(current)
  )
    current = unwrapExpression(current.expression);
  return ts.isIdentifier(current) ? current : undefined;
}

/**
 * What a statement may change: what it assigns, the objects whose methods it calls, and the
 * objects it passes to a call (which may change them). Reads of strings and numbers change nothing.
 */
function writtenSymbols(context: FileContext, statement: ts.Statement): Set<ts.Symbol> {
  const roots: ts.Identifier[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node) && isAssignment(node.operatorToken.kind)) {
      const root = rootIdentifier(node.left);
      if (root !== undefined) roots.push(root);
    }
    if (
      (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
      (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)
    ) {
      const root = rootIdentifier(node.operand);
      if (root !== undefined) roots.push(root);
    }
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const callee = unwrapExpression(node.expression);
      if (ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee)) {
        const root = rootIdentifier(callee.expression);
        if (root !== undefined) roots.push(root);
      }
      for (const argument of node.arguments ?? []) {
        const root = rootIdentifier(argument);
        const type = context.checker.getTypeAtLocation(argument);
        if (root !== undefined && (type.flags & PRIMITIVE) === 0) roots.push(root);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(statement);
  const symbols = new Set<ts.Symbol>();
  for (const root of roots) {
    const symbol = context.checker.getSymbolAtLocation(root);
    if (symbol !== undefined) symbols.add(symbol);
  }
  return symbols;
}

const PRIMITIVE =
  ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike | ts.TypeFlags.BigIntLike;

function isAssignment(kind: ts.SyntaxKind): boolean {
  return kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;
}

function line(context: FileContext, node: ts.Node): string {
  return `${context.textOf(node).split('\n')[0]} (line ${context.lineOf(node)})`;
}

/**
 * The explicit shape of a handler, or why the explicit style cannot express it. With `moveEffects`
 * (`--style explicit`), an expression statement with a side effect before the last question moves
 * after it when nothing up to the last question reads what it touches and nothing in between exits.
 */
export function explicitShape(
  context: FileContext,
  fn: HandlerFunction,
  askings: readonly Asking[],
  moveEffects: boolean,
): ExplicitShape | string {
  const body = fn.body;
  if (body === undefined || !ts.isBlock(body)) return 'the handler has no block body to rewrite';
  if (askings.length === 0) return 'the handler asks no question of its own';
  const questions: ExplicitQuestion[] = [];
  for (const asking of askings) {
    if (asking.kind !== 'push')
      return `a question is asked in a helper (line ${context.lineOf(asking.call)})`;
    // Replay re-runs the handler's own check of its record after a URL question on every retry.
    if (asking.push.shape === 'elicit-url')
      return `a URL-mode question (line ${context.lineOf(asking.push.call)}) is written in replay style, which re-runs the server's completion check on every retry`;
    // The explicit writer builds each request where it asks; replay keeps one built apart where it is.
    if (asking.push.builtApart !== undefined)
      return `a request is built in \`${asking.push.builtApart.text}\` before its question (line ${context.lineOf(asking.push.call)}), which replay keeps where it is`;
    const question = questionStatement(body, asking.push);
    if (question === undefined)
      return `a question is not a \`const x = await …\` statement at the top of the handler (line ${context.lineOf(asking.push.call)})`;
    questions.push(question);
  }
  const statements = body.statements;
  const indexOf = (question: ExplicitQuestion) => statements.indexOf(question.statement);
  const questionAt = new Map(questions.map((question) => [indexOf(question), question]));
  if (questionAt.size !== questions.length) return 'two questions share one statement';
  const last = Math.max(...questionAt.keys());
  const isQuestionCall = (node: ts.Node) => questions.some((question) => question.push.call === node);
  const proof = new PurityProof(context, fn, isQuestionCall);

  const moved: ts.ExpressionStatement[] = [];
  for (const [index, statement] of statements.entries()) {
    if (index > last) break;
    const question = questionAt.get(index);
    // A question's own params, the last one's included, run again on every round too.
    const scope = question === undefined ? statement : question.push.params;
    const effect = scope && proof.firstUnproven(scope);
    if (effect === undefined) continue;
    if (question !== undefined)
      return `building a question's request does what every round would repeat (not proven pure): ${line(context, effect)}`;
    const why = `something not proven pure comes before a question: ${line(context, effect)}`;
    if (!moveEffects || !ts.isExpressionStatement(statement)) return why;
    const later = statements.slice(index + 1, last + 1);
    const touched = writtenSymbols(context, statement);
    const feeds = later.some((other) => [...symbolsIn(context, other)].some((symbol) => touched.has(symbol)));
    if (feeds) return `${why}, and what it touches feeds a later question`;
    if (later.some((other) => !questionAt.has(statements.indexOf(other)) && exits(other)))
      return `${why}, and the handler may return before its last question`;
    moved.push(statement);
  }

  const rounds: ExplicitQuestion[][] = [];
  let previous = -1;
  for (const [index, statement] of statements.entries()) {
    if (index > last) break;
    const question = questionAt.get(index);
    if (question === undefined) {
      if (!moved.includes(statement as ts.ExpressionStatement)) previous = -1;
      continue;
    }
    const group = previous === -1 ? undefined : rounds.at(-1);
    const needs = symbolsIn(context, question.declaration.initializer!);
    const dependent = group?.some((other) =>
      [...declaredSymbols(context, other.declaration)].some((symbol) => needs.has(symbol)),
    );
    if (group === undefined || dependent) rounds.push([question]);
    else group.push(question);
    previous = index;
  }
  return { rounds, moved };
}
