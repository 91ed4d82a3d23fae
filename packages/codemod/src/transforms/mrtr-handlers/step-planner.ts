import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { unwrapExpression } from '../../analysis/syntax.js';
import { indentationAt, lineStartOf, nextLineStartOf } from '../../edits/line-ranges.js';
import { shiftIndentEdits } from '../../edits/reindent.js';
import { fitsOnLine, quoteString, semicolon } from '../../edits/source-style.js';
import type { TextEdit } from '../../edits/text-edit.js';
import { snakeCase, type AnswerKeys } from './answer-keys.js';
import { alwaysExits, fallsThrough } from './case-flow.js';
import type { HelperFunction } from './eligible-handlers.js';
import { PurityProof } from './pure-code.js';
import { isUrlElicitationRequiredError } from './push-calls.js';
import { resultKind, usedAsObject, type ResultKind } from './result-kind.js';

// What a replayed handler (or a helper that asks through its round) does before a question runs
// again on every round. Code proven pure (pure-code.ts) may; every other statement on a
// question's path is a presumed effect, handled by what it gives back (result-kind.ts):
// - data or nothing: journaled with `round.step`, so it runs once and every round sees its result;
// - a live object (a client, a connection): left to run on every round, as a stateless server
//   does on every request anyway, and listed in the report to check that it has no effect;
// - a live object from a statement that also writes state outside the handler: manual.

/** The steps a function's rewrite journals, and what it leaves to run again each round. */
export interface PlannedSteps {
  readonly edits: TextEdit[];
  /** One line per presumed effect left to re-run each round, for the report. */
  readonly notes: string[];
  /** Try statements whose finally block is to run only when the try did not suspend (finally-guard.ts). */
  readonly guardedFinally: ts.TryStatement[];
}

/** The report's words for a presumed effect whose live result is left to run again each round. */
export const RERUN_NOTE = 're-runs each round: check it has no effect';

function isInside(node: ts.Node, outer: ts.Node): boolean {
  // Positions are per file: a function the proof follows into another file is never inside.
  return node.getSourceFile() === outer.getSourceFile() && node.pos >= outer.pos && node.end <= outer.end;
}

/** Whether `node` sits in the condition of an `if` or a loop inside `outer`. */
function isInCondition(node: ts.Node, outer: ts.Node): boolean {
  for (let current = node; current !== outer; current = current.parent) {
    const parent = current.parent;
    if (
      (ts.isIfStatement(parent) ||
        ts.isWhileStatement(parent) ||
        ts.isDoStatement(parent) ||
        ts.isForStatement(parent)) &&
      (parent as { expression?: ts.Node; condition?: ts.Node }).expression === current
    )
      return true;
    if (ts.isForStatement(parent) && parent.condition === current) return true;
  }
  return false;
}

/** The name of the first call in a chain: `sendReceipt` in `await sendReceipt(x).catch(…)`, `store.update`. */
function callName(expression: ts.Expression): string | undefined {
  let current = unwrapExpression(expression);
  if (ts.isAwaitExpression(current)) current = unwrapExpression(current.expression);
  let name: string | undefined;
  while (ts.isCallExpression(current)) {
    const callee = unwrapExpression(current.expression);
    if (ts.isIdentifier(callee)) return callee.text;
    if (!ts.isPropertyAccessExpression(callee)) return name;
    const object = unwrapExpression(callee.expression);
    name = ts.isIdentifier(object) ? `${object.text}_${callee.name.text}` : callee.name.text;
    current = object;
  }
  return name;
}

/** The name an assignment sets: `cachedRoots` in `cachedRoots = []`, `count` in `state.count += 1`. */
function assignedName(expression: ts.Expression): string | undefined {
  const inner = unwrapExpression(expression);
  if (!ts.isBinaryExpression(inner) || !isAssignmentOperatorKind(inner.operatorToken.kind)) return undefined;
  const target = unwrapExpression(inner.left);
  if (ts.isIdentifier(target)) return target.text;
  return ts.isPropertyAccessExpression(target) ? target.name.text : undefined;
}

function isAssignmentOperatorKind(kind: ts.SyntaxKind): boolean {
  return kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;
}

/**
 * Plans the statements of one function on every path to its questions: a `const x = …` or an
 * expression statement, or the condition of an `if` that holds a question. Branches that always
 * return before a question do not count, and a switch or if-chain on the tool name is followed
 * case by case. Anywhere else (a loop around a question, the question's own arguments, a catch
 * block) a replay would repeat the effect: the function stays manual, and the reason says where.
 */
export function planSteps(
  context: FileContext,
  fn: HelperFunction,
  askings: readonly ts.Node[],
  round: string,
  keys: AnswerKeys,
  /** Calls the rewrite removes (URL mode's completion notifiers): a replay cannot repeat them. */
  removed: (node: ts.Node) => boolean = () => false,
  /**
   * Whether `fn` is the handler itself or a helper it calls: only in the handler is it known that
   * nothing asks after `fn` returns, which a catch block's effects rely on (see #tryStatement).
   */
  role: 'handler' | 'helper' = 'helper',
): PlannedSteps | string {
  const body = fn.body;
  if (body === undefined || !ts.isBlock(body)) return { edits: [], notes: [], guardedFinally: [] };
  const planner = new StepPlanner(context, fn, askings, round, keys, removed, role);
  const why = planner.statements(body.statements);
  return why ?? { edits: planner.edits, notes: planner.notes, guardedFinally: planner.guardedFinally };
}

class StepPlanner {
  readonly edits: TextEdit[] = [];
  readonly notes: string[] = [];
  readonly guardedFinally: ts.TryStatement[] = [];
  readonly #proof: PurityProof;
  /** Where the planner is while it plans a catch or finally block a later round reaches again. */
  #reached: string | undefined;
  /** Declarations whose value this rewrite journals: every round reads the same. */
  readonly #journaled = new Set<ts.Node>();
  readonly #following = new Set<ts.Node>();

  constructor(
    private readonly context: FileContext,
    private readonly fn: HelperFunction,
    private readonly askings: readonly ts.Node[],
    private readonly round: string,
    private readonly keys: AnswerKeys,
    removed: (node: ts.Node) => boolean,
    private readonly role: 'handler' | 'helper',
  ) {
    this.#proof = new PurityProof(
      context,
      fn,
      (candidate) =>
        askings.includes(candidate) ||
        removed(candidate) ||
        // Only the function's own last statements: a called function's `return` is part of the call.
        (isInside(candidate, fn) && this.#endsTheCall(candidate)),
    );
  }

  #repeated(effect: ts.Node, where: string, todo = 'journal it with round.step by hand'): string {
    const code = this.context.textOf(effect).split('\n')[0];
    return `a replay would repeat ${code} (line ${this.context.lineOf(effect)}) ${where}; ${todo}`;
  }

  #effectIn(node: ts.Node | undefined): ts.Node | undefined {
    return node === undefined ? undefined : this.#proof.firstUnproven(node);
  }

  /**
   * A statement after which its block returns without asking again: what it does happens on the
   * last round only (a loop's final pass), so a replay never repeats it.
   */
  #endsTheCall(node: ts.Node): boolean {
    const block = node.parent;
    if (block === undefined || !ts.isBlock(block) || !ts.isStatement(node)) return false;
    const rest = block.statements.slice(block.statements.indexOf(node));
    const last = rest.at(-1);
    if (last === undefined || !ts.isReturnStatement(last)) return false;
    if (rest.some((statement) => this.askings.some((asking) => isInside(asking, statement)))) return false;
    for (let outer: ts.Node = block; !ts.isFunctionLike(outer); outer = outer.parent)
      if (ts.isTryStatement(outer)) return false;
    return true;
  }

  /** Plans the statements of one path; returns why not, if a presumed effect cannot be handled. */
  statements(statements: readonly ts.Statement[]): string | undefined {
    const file = this.context.sourceFile;
    const inside = (statement: ts.Node) => this.askings.filter((node) => isInside(node, statement));
    const last = Math.max(
      -1,
      ...statements.flatMap((statement) => inside(statement).map((node) => node.getStart(file))),
    );
    for (const statement of statements) {
      if (statement.getStart(file) >= last) break;
      if (inside(statement).length > 0) {
        const why = this.#containing(statement);
        if (why !== undefined) return why;
        continue;
      }
      const effect = this.#effectIn(statement);
      if (effect === undefined) continue;
      if (
        ts.isIfStatement(statement) &&
        statement.elseStatement === undefined &&
        alwaysExits(statement.thenStatement)
      ) {
        const why = this.#condition(statement.expression, 'in a condition before a question');
        if (why !== undefined) return why;
        continue;
      }
      if (alwaysExits(statement)) continue;
      const why = this.#handle(statement, effect);
      if (why !== undefined) return why;
    }
    return undefined;
  }

  /** A statement that holds a question: follow blocks, ifs and switches; elsewhere no effect may come first. */
  #containing(statement: ts.Statement): string | undefined {
    if (ts.isBlock(statement)) return this.statements(statement.statements);
    if (ts.isIfStatement(statement)) {
      const why = this.#condition(statement.expression, 'in a condition before a question');
      if (why !== undefined) return why;
      return (
        this.statements([statement.thenStatement]) ??
        (statement.elseStatement === undefined ? undefined : this.statements([statement.elseStatement]))
      );
    }
    if (ts.isSwitchStatement(statement)) {
      const inSubject = this.#effectIn(statement.expression);
      if (inSubject !== undefined) return this.#repeated(inSubject, 'in a switch before a question');
      const clauses = statement.caseBlock.clauses;
      for (const [index, clause] of clauses.entries()) {
        const previous = clauses[index - 1];
        const asks = this.askings.some((node) => isInside(node, clause));
        const before = previous === undefined ? undefined : this.#effectIn(previous);
        if (
          asks &&
          previous !== undefined &&
          previous.statements.length > 0 &&
          fallsThrough(previous) &&
          before
        )
          return this.#repeated(before, 'in a case that falls through to a question');
        const why = this.statements(clause.statements);
        if (why !== undefined) return why;
      }
      return undefined;
    }
    if (ts.isTryStatement(statement)) return this.#tryStatement(statement);
    // A statement that asks: nothing may happen in it before the (last) question.
    const lastAsk = Math.max(
      ...this.askings
        .filter((node) => isInside(node, statement))
        .map((node) => node.getStart(this.context.sourceFile)),
    );
    const effect = this.#effectIn(statement);
    if (effect === undefined) return undefined;
    if (effect.getStart(this.context.sourceFile) < lastAsk)
      return this.#repeated(effect, 'in the same statement as a question');
    if (!ts.isIterationStatement(statement, false)) return undefined;
    // After the question in a loop, the next pass asks again, so a replay runs it again each round.
    // A condition that writes nothing outside may (a URL-mode completion check); it is listed.
    const effects = this.#proof.allUnproven(statement);
    const unsafe = effects.find((each) => !isInCondition(each, statement) || this.#proof.writesOutside(each));
    if (unsafe !== undefined) return this.#repeated(unsafe, 'in a loop around a question');
    for (const each of effects)
      this.notes.push(
        `${this.context.textOf(each).split('\n')[0]} (line ${this.context.lineOf(each)}, a condition after a question in a loop) ${RERUN_NOTE}`,
      );
    return undefined;
  }

  /**
   * A try statement around a question. Its catch block rethrows the suspension first (see
   * catchEdits), and its finally block runs only when the try block did not suspend (see
   * finally-guard.ts), so what they do happens when the original did it: on a real error, or when
   * the try block is done. That is once when nothing can ask after it: every question inside the
   * try block, none after the statement, no loop around it, and `fn` the handler itself. Otherwise
   * (a helper's caller may ask after it returns, and the next round runs the helper again) a
   * later round reaches them again, so what they do is journaled as well.
   */
  #tryStatement(statement: ts.TryStatement): string | undefined {
    const why = this.statements(statement.tryBlock.statements);
    if (why !== undefined) return why;
    const inFinally = this.#effectIn(statement.finallyBlock);
    const inCatch = this.#effectIn(statement.catchClause);
    if (inFinally === undefined && inCatch === undefined) return undefined;
    const askedOutsideTryBlock = this.askings.some(
      (asking) =>
        !isInside(asking, statement.tryBlock) &&
        asking.getStart(this.context.sourceFile) >= statement.getStart(this.context.sourceFile),
    );
    let inLoop = false;
    for (let outer = statement.parent; outer !== this.fn && outer !== undefined; outer = outer.parent)
      if (ts.isIterationStatement(outer, false)) inLoop = true;
    const once = this.role === 'handler' && !askedOutsideTryBlock && !inLoop;
    const asksIn = (block: ts.Block | undefined) =>
      block !== undefined && this.askings.some((asking) => isInside(asking, block));
    if (inCatch !== undefined && !once) {
      if (asksIn(statement.catchClause?.block))
        return this.#repeated(inCatch, 'in a catch block that asks a question itself');
      const why = this.#reachedAgain(statement.catchClause!.block, 'in a catch block around a question');
      if (why !== undefined) return why;
    }
    if (inFinally === undefined) return undefined;
    if (asksIn(statement.finallyBlock))
      return this.#repeated(inFinally, 'in a finally block that asks a question itself');
    this.guardedFinally.push(statement);
    return once
      ? undefined
      : this.#reachedAgain(statement.finallyBlock!, 'in a finally block around a question');
  }

  /**
   * Journals what a catch or finally block does that a later round reaches again. A `return`
   * there ends only this function, not the call, so its value is journaled too when it has an
   * effect; any other way out with an effect (a `throw`) is left to a person.
   */
  #reachedAgain(block: ts.Block, where: string): string | undefined {
    this.#reached = where;
    try {
      for (const statement of block.statements) {
        const effect = this.#effectIn(statement);
        if (effect === undefined) continue;
        const why = this.#exitOrHandle(statement, effect);
        if (why !== undefined) return why;
      }
      return undefined;
    } finally {
      this.#reached = undefined;
    }
  }

  /** A statement with a presumed effect in a block a later round reaches again (#reachedAgain). */
  #exitOrHandle(statement: ts.Statement, effect: ts.Node): string | undefined {
    const where = this.#reached ?? 'before a question';
    if (ts.isReturnStatement(statement) && statement.expression !== undefined) {
      const value = statement.expression;
      if (resultKind(this.context, value) !== 'json' || this.#proof.writesOwn(value))
        return this.#repeated(effect, `${where}, returning what round.step cannot journal`);
      this.#journalExpression(value, callName(value) ?? 'result');
      return undefined;
    }
    if (alwaysExits(statement)) return this.#repeated(effect, `${where}, in a statement that leaves it`);
    return this.#handle(statement, effect);
  }

  /** A condition before a question: pure, or journaled when it is data (`if (await isPaid(id))`). */
  #condition(condition: ts.Expression, where: string, operand = false): string | undefined {
    const effect = this.#effectIn(condition);
    if (effect === undefined) return undefined;
    // `if (notes?.length && canSample(server))`: only the operands with an effect are journaled,
    // so the pure ones stay in the condition and still narrow what the branch reads.
    if (
      ts.isBinaryExpression(condition) &&
      condition.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken
    )
      return this.#condition(condition.left, where, true) ?? this.#condition(condition.right, where, true);
    if (resultKind(this.context, condition) !== 'json' || this.#proof.writesOwn(condition))
      return this.#repeated(effect, where);
    this.#journalExpression(condition, callName(condition) ?? 'condition', { operand });
    return undefined;
  }

  /** What a presumed effect gives back; an unknown result used as an object or passed on is taken to be live. */
  #kindOf(value: ts.Expression, binding: ts.BindingName): Exclude<ResultKind, 'unknown'> {
    const kind = resultKind(this.context, value);
    if (kind !== 'unknown') return kind;
    return usedAsObject(this.context, binding, this.fn.body ?? this.fn) ? 'live' : 'json';
  }

  /** Journals, re-runs or refuses one statement with a presumed effect before a question. */
  #handle(statement: ts.Statement, effect: ts.Node): string | undefined {
    const declarations = ts.isVariableStatement(statement) ? statement.declarationList.declarations : [];
    const declaration = declarations.length === 1 ? declarations[0] : undefined;
    if (declaration?.initializer !== undefined)
      return this.#value(statement, declaration.initializer, declaration.name, effect);
    // `if (answer.content?.backup === true) record(…)`: on a condition every round sees the same,
    // the branch taken is the same, so what it does is journaled where it stands. Any other
    // condition is journaled first, so every round takes the branch the first one took.
    if (ts.isIfStatement(statement))
      return (
        this.#steadyCondition(statement, effect) ??
        this.#branch(statement.thenStatement) ??
        this.#branch(statement.elseStatement)
      );
    if (!ts.isExpressionStatement(statement))
      return this.#repeated(effect, 'before a question, in a statement round.step cannot wrap');
    const expression = unwrapExpression(statement.expression);
    // `client = await connect()` on a variable of the function: it must be set on every round.
    if (
      ts.isBinaryExpression(expression) &&
      expression.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isIdentifier(expression.left) &&
      this.#proof.isOwn(expression.left)
    )
      return this.#value(statement, expression.right, expression.left, effect);
    if (this.#proof.writesOwn(statement.expression))
      return this.#repeated(
        effect,
        'before a question, in a statement that also sets a variable of its own, which a journaled step would set on the first round only',
      );
    this.#journalStatement(statement);
    return undefined;
  }

  /**
   * Makes an `if`'s condition read the same on every round: steady already, or journaled as the
   * truth value the first round saw (`if (await round.step('held', async () => held.has(seat)))`),
   * as the original evaluated it once. A condition that sets a variable of the function, or whose
   * test narrows a type its branches rely on, cannot be journaled without changing them.
   */
  #steadyCondition(statement: ts.IfStatement, effect: ts.Node): string | undefined {
    const condition = statement.expression;
    if (this.#isSteady(condition)) return undefined;
    if (this.#proof.writesOwn(condition))
      return this.#repeated(
        effect,
        'before a question, in an if whose condition also sets a variable of its own, which a journaled condition would set on the first round only',
      );
    // `throw new UrlElicitationRequiredError(…)` becomes a round whose retry runs the handler again
    // (url-required-error.ts): the original's retry was a new call that tested the condition
    // afresh, so a journaled one would lead to the link again on every retry.
    let urlThrow: ts.Node | undefined;
    const findUrlThrow = (node: ts.Node): void => {
      if (urlThrow !== undefined || ts.isFunctionLike(node)) return;
      if (isUrlElicitationRequiredError(this.context, node)) urlThrow = node;
      else ts.forEachChild(node, findUrlThrow);
    };
    findUrlThrow(statement);
    if (urlThrow !== undefined)
      return this.#repeated(
        effect,
        `before a question, in an if whose condition reads more than answers and journaled values and leads to the UrlElicitationRequiredError on line ${this.context.lineOf(urlThrow)}, whose retry the original decided by testing the condition again`,
        'decide on the retry from your own record of the link (see @mcp-mrtr/runtime/url-mode) by hand',
      );
    const narrowed = this.#narrowedIn(condition, [statement.thenStatement, statement.elseStatement]);
    if (narrowed !== undefined)
      return this.#repeated(
        effect,
        `before a question, in an if whose condition reads more than answers and journaled values and narrows ${narrowed} for its branch, which a journaled condition would not`,
      );
    const boolean =
      (this.context.checker.getTypeAtLocation(condition).flags & ts.TypeFlags.BooleanLike) !== 0;
    const name = callName(condition) ?? (ts.isIdentifier(condition) ? condition.text : 'condition');
    this.#journalExpression(condition, name, { truth: !boolean });
    return undefined;
  }

  /**
   * The first name or property path read in `condition` whose type differs in `branches`: the
   * condition narrows it there, which a journaled truth value would not.
   */
  #narrowedIn(condition: ts.Expression, branches: readonly (ts.Statement | undefined)[]): string | undefined {
    const { checker, sourceFile } = this.context;
    const typeOf = (node: ts.Node) => checker.typeToString(checker.getTypeAtLocation(node));
    const read = new Map<string, string>();
    const collect = (node: ts.Node): void => {
      if (ts.isFunctionLike(node)) return;
      if (ts.isIdentifier(node) || ts.isPropertyAccessExpression(node)) {
        const text = node.getText(sourceFile);
        if (!read.has(text)) read.set(text, typeOf(node));
      }
      ts.forEachChild(node, collect);
    };
    collect(condition);
    let narrowed: string | undefined;
    const visit = (node: ts.Node): void => {
      if (narrowed !== undefined) return;
      if (ts.isIdentifier(node) || ts.isPropertyAccessExpression(node)) {
        const before = read.get(node.getText(sourceFile));
        if (before !== undefined && before !== typeOf(node)) {
          narrowed = node.getText(sourceFile);
          return;
        }
      }
      ts.forEachChild(node, visit);
    };
    for (const branch of branches) if (branch !== undefined) visit(branch);
    return narrowed;
  }

  /** Plans the statements of an `if`'s branch taken the same way every round. */
  #branch(statement: ts.Statement | undefined): string | undefined {
    if (statement === undefined) return undefined;
    for (const each of ts.isBlock(statement) ? statement.statements : [statement]) {
      const effect = this.#effectIn(each);
      if (effect === undefined) continue;
      // Leaving the branch ends the call, except in a block a later round reaches again.
      if (this.#reached !== undefined) {
        const why = this.#exitOrHandle(each, effect);
        if (why !== undefined) return why;
        continue;
      }
      if (alwaysExits(each)) continue;
      const why = this.#handle(each, effect);
      if (why !== undefined) return why;
    }
    return undefined;
  }

  /**
   * Whether an expression is proven pure and reads only what every round sees the same: answers
   * to questions and values this rewrite journals, and constants computed from them.
   */
  #isSteady(expression: ts.Expression): boolean {
    if (this.#effectIn(expression) !== undefined) return false;
    let steady = true;
    const visit = (node: ts.Node): void => {
      if (!steady) return;
      if (ts.isPropertyAccessExpression(node)) return visit(node.expression);
      if (ts.isIdentifier(node) && node.text !== 'undefined') steady = this.#isSteadyName(node);
      else ts.forEachChild(node, visit);
    };
    visit(expression);
    return steady;
  }

  /** A `const` of the function bound to a question's answer or a journaled value, or computed purely from such. */
  #isSteadyName(identifier: ts.Identifier): boolean {
    let declaration: ts.Node | undefined =
      this.context.checker.getSymbolAtLocation(identifier)?.valueDeclaration;
    while (declaration !== undefined && ts.isBindingElement(declaration))
      declaration = declaration.parent.parent;
    if (
      declaration === undefined ||
      !ts.isVariableDeclaration(declaration) ||
      declaration.initializer === undefined ||
      !isInside(declaration, this.fn) ||
      (ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const) === 0
    )
      return false;
    if (this.#journaled.has(declaration)) return true;
    // A constant that refers back to itself (through a closure) is not followed again.
    if (this.#following.has(declaration)) return false;
    // `const answer = await server.elicitInput(…)`: the journal replays the answer.
    let value = unwrapExpression(declaration.initializer);
    if (ts.isAwaitExpression(value)) value = unwrapExpression(value.expression);
    if (this.askings.includes(value)) return true;
    this.#following.add(declaration);
    const steady = this.#isSteady(declaration.initializer);
    this.#following.delete(declaration);
    return steady;
  }

  /** A value with a presumed effect, bound to a name: journaled when it is data, re-run when it is live. */
  #value(
    statement: ts.Statement,
    value: ts.Expression,
    binding: ts.BindingName,
    effect: ts.Node,
  ): string | undefined {
    if (this.#proof.writesOwn(value))
      return this.#repeated(
        effect,
        'before a question, in a statement that also sets a variable of its own, which a journaled step would set on the first round only',
      );
    if (this.#kindOf(value, binding) === 'json') {
      const name = ts.isIdentifier(binding) ? binding.text : (callName(value) ?? 'value');
      this.#journalExpression(value, name);
      if (ts.isVariableDeclaration(binding.parent)) this.#journaled.add(binding.parent);
      return undefined;
    }
    if (this.#proof.writesOutside(value)) {
      const code = this.context.textOf(statement).split('\n')[0];
      return `${code} (line ${this.context.lineOf(statement)}) both writes state outside the handler and returns a live object, which round.step cannot journal and a replay would write again; split the write from the object by hand`;
    }
    this.notes.push(
      `${this.context.textOf(statement).split('\n')[0]} (line ${this.context.lineOf(statement)}) ${RERUN_NOTE}`,
    );
    return undefined;
  }

  /** The indentation a finally block's guard adds to what it wraps (finally-guard.ts). */
  #guardIndent(node: ts.Node): string {
    const guarded = this.guardedFinally.some(
      (statement) => statement.finallyBlock !== undefined && isInside(node, statement.finallyBlock),
    );
    return guarded ? this.context.style.indentUnit : '';
  }

  /**
   * `await round.step('key', async () => <expression>)` in place of the expression; when that
   * would outgrow the file's longest line, the expression goes on a line of its own below, one
   * level deeper, as Prettier breaks an arrow's body.
   */
  #journalExpression(
    expression: ts.Expression,
    name: string,
    { operand = false, truth = false }: { operand?: boolean; truth?: boolean } = {},
  ): void {
    const { sourceFile, style, text } = this.context;
    const key = quoteString(style, this.keys.forStep(snakeCase(name)));
    const start = expression.getStart(sourceFile);
    // An object literal as an arrow's body must be parenthesized, or it reads as a block; a
    // condition whose value is not a boolean journals only its truth (`Boolean(…)`).
    const object = ts.isObjectLiteralExpression(expression) || truth;
    const open = truth ? 'Boolean(' : '(';
    // An operand of `&&` is parenthesized, as a formatter writes an await there.
    const head = `${operand ? '(' : ''}await ${this.round}.step(${key}, async () =>`;
    const close = operand ? ')' : '';
    const lineStart = lineStartOf(text, start);
    const firstLine = text.slice(lineStart, nextLineStartOf(text, start)).trimEnd();
    const original = indentationAt(text, start);
    const indent = original + this.#guardIndent(expression);
    const grown = `${firstLine}${head} ${object ? `${open})` : ')'}`.slice(original.length);
    if (fitsOnLine(style, indent, grown)) {
      this.edits.push(
        { start, end: start, text: `${head} ${object ? open : ''}` },
        { start: expression.end, end: expression.end, text: `${object ? '))' : ')'}${close}` },
      );
      return;
    }
    const inner = `${indent}${style.indentUnit}`;
    const comma = style.trailingCommas ? ',' : '';
    this.edits.push(
      { start, end: start, text: `${head}${style.newline}${inner}${object ? open : ''}` },
      ...shiftIndentEdits(sourceFile, expression, original, inner),
      {
        start: expression.end,
        end: expression.end,
        text: `${object ? ')' : ''}${comma}${style.newline}${indent})${close}`,
      },
    );
  }

  /** `await round.step('key', async () => { <statement>; })` around an expression statement. */
  #journalStatement(statement: ts.ExpressionStatement): void {
    const context = this.context;
    const style = context.style;
    const name = callName(statement.expression) ?? assignedName(statement.expression) ?? 'effect';
    const key = quoteString(style, this.keys.forStep(snakeCase(name)));
    const start = statement.expression.getStart(context.sourceFile);
    const original = indentationAt(context.text, start);
    const indent = original + this.#guardIndent(statement);
    this.edits.push(
      {
        start,
        end: start,
        text: `await ${this.round}.step(${key}, async () => {${style.newline}${indent}${style.indentUnit}`,
      },
      // The wrapped statement's own lines move one level deeper with it.
      ...shiftIndentEdits(context.sourceFile, statement.expression, original, `${indent}${style.indentUnit}`),
      {
        start: statement.expression.end,
        end: statement.expression.end,
        text: `${semicolon(style)}${style.newline}${indent}})`,
      },
    );
  }
}
