import { isMcpSdkDeclarationFile, RUNTIME_PACKAGE } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { findProperty, unwrapExpression } from '../../analysis/syntax.js';
import { isUnresolvedSdkContext } from '../../analysis/unresolved-sdk-evidence.js';
import type { ImportRequest } from '../../edits/imports.js';
import { indentationAt, startsItsLine } from '../../edits/line-ranges.js';
import { quoteString, semicolon } from '../../edits/source-style.js';
import type { TextEdit } from '../../edits/text-edit.js';
import { ADAPTER_MODULE } from './adapter-setup.js';
import { alwaysExits, fallsThrough } from './case-flow.js';
import { ownRoundTripTargets } from './own-round-trip.js';
import { AnswerKeys, snakeCase } from './answer-keys.js';
import { keptQuestionWaits } from './awaited-question.js';
import type { EligibleHandler, HandlerFunction } from './eligible-handlers.js';
import type { Helper } from './placement.js';
import type { PushCall } from './push-calls.js';
import { questionEdits } from './question-edits.js';
import { roundArgumentEdit } from './round-parameter.js';
import { firstEffectIn } from './replayed-effects.js';
import { typeName, type TypeImport } from './type-imports.js';
import { isNotifierUse, planUrlCompletion, removedNotifiers } from './url-mode-question.js';
import { v1ContextNameEdits } from './v1-context-names.js';

// Journaled replay: the handler registers through the runtime adapter, every question becomes
// `await round.ask(key, request)`, and what it does before a question that a replay would repeat
// is journaled with `round.step`, so every round sees the same values and effects happen once.

/** What the handler's edits are made of, or why it cannot be rewritten. */
export interface HandlerRewrite {
  /** Edits of the registration, the parameters, the body's preamble, steps and catch blocks. */
  readonly edits: TextEdit[];
  /** Edits per question, keyed by the push call. */
  readonly questions: Map<ts.CallExpression, TextEdit[]>;
  readonly imports: ImportRequest[];
  /** The handler is declared apart from its registration, so `round` needs its type written out. */
  readonly typeImports: TypeImport[];
}

/** A question the handler asks itself, or through a helper it calls. */
export type Asking =
  | { readonly kind: 'push'; readonly push: PushCall }
  | { readonly kind: 'helper-call'; readonly call: ts.CallExpression; readonly helper: Helper };

function namesIn(node: ts.Node): Set<string> {
  const names = new Set<string>();
  const visit = (current: ts.Node): void => {
    if (ts.isIdentifier(current)) names.add(current.text);
    ts.forEachChild(current, visit);
  };
  visit(node);
  return names;
}

export function freshName(node: ts.Node, name: string): string {
  const taken = namesIn(node);
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name}${n}`;
  return candidate;
}

/** `[open paren, after close paren)` of a function's parameter list, or the bare parameter of `x =>`. */
export function parameterListRange(
  context: FileContext,
  fn: HandlerFunction,
): { start: number; end: number } {
  const parameters = fn.parameters;
  const text = context.text;
  const open = text.lastIndexOf('(', parameters.pos);
  const first = parameters[0];
  const bare =
    ts.isArrowFunction(fn) &&
    first !== undefined &&
    !text.slice(fn.getStart(context.sourceFile), first.getStart(context.sourceFile)).includes('(');
  if (bare) return { start: first.getStart(context.sourceFile), end: first.end };
  // The closing parenthesis follows the last parameter, perhaps after a trailing comma.
  const close = text.indexOf(')', parameters.end);
  return { start: open, end: close + 1 };
}

interface Range {
  readonly start: number;
  readonly end: number;
}

function isInside(node: ts.Node, outer: ts.Node): boolean {
  return node.pos >= outer.pos && node.end <= outer.end;
}

/** Whether `server.tool(…)` or `server.prompt(…)` passes a shape (its last argument before the handler is not a description). */
function shorthandHasShape(context: FileContext, handler: EligibleHandler): boolean {
  if (handler.registration.arguments.length <= 2) return false;
  const before = unwrapExpression(handler.registration.arguments.at(-2)!);
  return handler.kind === 'prompt' ? !isStringLike(context, before) : ts.isObjectLiteralExpression(before);
}

/** `registerResource(name, new ResourceTemplate(…), …)`: the handler also receives the variables. */
function isTemplate(handler: EligibleHandler): boolean {
  const second = handler.registration.arguments[1];
  return second !== undefined && ts.isNewExpression(unwrapExpression(second));
}

function hasArguments(context: FileContext, handler: EligibleHandler): boolean {
  if (handler.kind === 'low-level') return true;
  if (handler.shorthand) return shorthandHasShape(context, handler);
  const config = handler.registration.arguments[1];
  const object = config === undefined ? undefined : unwrapExpression(config);
  if (object === undefined) return false;
  const schemaKey = handler.kind === 'tool' ? 'inputSchema' : 'argsSchema';
  if (ts.isObjectLiteralExpression(object)) return findProperty(object, schemaKey) !== undefined;
  // A config declared elsewhere (`registerTool(name, config, …)`): its type says whether it has one.
  return context.checker.getTypeAtLocation(object).getProperty(schemaKey) !== undefined;
}

/** Whether a parameter's type is declared by an MCP SDK (`RequestHandlerExtra`, `ServerContext`). */
function hasSdkType(context: FileContext, parameter: ts.ParameterDeclaration): boolean {
  const type = context.checker.getTypeAtLocation(parameter.name);
  // A local alias (`type Extra = RequestHandlerExtra<…>`) names the SDK's type underneath.
  return [type.aliasSymbol, type.getSymbol()].some((symbol) => {
    const declaration = symbol?.declarations?.[0];
    return declaration !== undefined && isMcpSdkDeclarationFile(declaration.getSourceFile().fileName);
  });
}

/** The references to a parameter inside `scope`, outside the given ranges. */
function usesOutside(
  context: FileContext,
  parameter: ts.ParameterDeclaration,
  scope: ts.Node,
  removed: readonly Range[],
): number {
  if (!ts.isIdentifier(parameter.name)) return 1;
  const symbol = context.checker.getSymbolAtLocation(parameter.name);
  let count = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && node !== parameter.name) {
      const start = node.getStart(context.sourceFile);
      if (removed.some((range) => range.start <= start && node.end <= range.end)) return;
      const target =
        ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node
          ? context.checker.getShorthandAssignmentValueSymbol(node.parent)
          : context.checker.getSymbolAtLocation(node);
      if (target === symbol) count++;
    }
    ts.forEachChild(node, visit);
  };
  visit(scope);
  return count;
}

/** The line break and indentation for a statement inserted first into a block. */
function firstLineOf(context: FileContext, block: ts.Block): string {
  const first = block.statements[0];
  const indent =
    first === undefined
      ? indentationAt(context.text, block.getStart(context.sourceFile)) + context.style.indentUnit
      : indentationAt(context.text, first.getStart(context.sourceFile));
  return `${context.style.newline}${indent}`;
}

/** Catch blocks around an asking that would swallow the suspension get `if (isSuspension(e)) throw e;`. */
function catchEdits(
  context: FileContext,
  fn: HandlerFunction,
  askings: readonly ts.Node[],
  imports: ImportRequest[],
): TextEdit[] | string {
  const tries = new Set<ts.TryStatement>();
  for (const asking of askings) {
    for (let node: ts.Node = asking; node !== fn; node = node.parent) {
      const parent = node.parent;
      if (ts.isTryStatement(parent) && parent.tryBlock === node && parent.catchClause !== undefined)
        tries.add(parent);
    }
  }
  const edits: TextEdit[] = [];
  if (tries.size === 0) return edits;
  const isSuspension = context.importFor(RUNTIME_PACKAGE, 'isSuspension');
  imports.push(isSuspension);
  for (const statement of tries) {
    const clause = statement.catchClause!;
    let name: string;
    if (clause.variableDeclaration === undefined) {
      name = freshName(clause, 'error');
      const keywordEnd = clause.getStart(context.sourceFile) + 'catch'.length;
      edits.push({ start: keywordEnd, end: clause.block.getStart(context.sourceFile), text: ` (${name}) ` });
    } else if (ts.isIdentifier(clause.variableDeclaration.name)) {
      name = clause.variableDeclaration.name.text;
    } else {
      return 'a catch clause around a question destructures what it catches, so it cannot rethrow the suspension';
    }
    const at = clause.block.getStart(context.sourceFile) + 1;
    edits.push({
      start: at,
      end: at,
      text: `${firstLineOf(context, clause.block)}if (${isSuspension.local}(${name})) throw ${name}${semicolon(context.style)}`,
    });
  }
  return edits;
}

/** The name of the first call in a chain: `sendReceipt` in `await sendReceipt(x).catch(…)`, `store.update`. */
function callName(expression: ts.Expression): string | undefined {
  let current = unwrapExpression(expression);
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

/**
 * Effects before a question, each journaled with `round.step`: a `const x = …` or an expression
 * statement on the question's path. Branches that always return before a question do not
 * count, and a switch or if-chain on the tool name is followed case by case. Anywhere else (a
 * condition, a loop around a question, the question's own arguments) a replay would repeat the
 * effect: the handler stays manual.
 */
class StepPlanner {
  readonly edits: TextEdit[] = [];

  constructor(
    private readonly context: FileContext,
    private readonly askings: readonly ts.Node[],
    private readonly round: string,
    private readonly keys: AnswerKeys,
    /** Whether an identifier names something declared inside the handler. */
    private readonly local: (identifier: ts.Node) => boolean,
    /** Calls the rewrite removes (URL mode's completion notifiers): a replay cannot repeat them. */
    private readonly removed: (node: ts.Node) => boolean = () => false,
  ) {}

  #repeated(effect: ts.Node, where: string): string {
    const code = this.context.textOf(effect).split('\n')[0];
    return `a replay would repeat ${code} (line ${this.context.lineOf(effect)}) ${where}; journal it with round.step by hand`;
  }

  #effectIn(node: ts.Node | undefined): ts.Node | undefined {
    return node === undefined
      ? undefined
      : firstEffectIn(
          node,
          (candidate) =>
            this.askings.includes(candidate) || this.removed(candidate) || this.#endsTheCall(candidate),
          this.local,
        );
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

  /** Plans the statements of one path; returns why not, if a repeated effect cannot be journaled. */
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
        const inCondition = this.#effectIn(statement.expression);
        if (inCondition !== undefined) return this.#repeated(inCondition, 'in a condition before a question');
        continue;
      }
      if (alwaysExits(statement)) continue;
      const why = this.#wrap(statement);
      if (why !== undefined) return this.#repeated(effect, why);
    }
    return undefined;
  }

  /** A statement that holds a question: follow blocks, ifs and switches; elsewhere no effect may come first. */
  #containing(statement: ts.Statement): string | undefined {
    if (ts.isBlock(statement)) return this.statements(statement.statements);
    if (ts.isIfStatement(statement)) {
      const inCondition = this.#effectIn(statement.expression);
      if (inCondition !== undefined) return this.#repeated(inCondition, 'in a condition before a question');
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
        if (
          asks &&
          previous !== undefined &&
          previous.statements.length > 0 &&
          fallsThrough(previous) &&
          this.#effectIn(previous) !== undefined
        )
          return this.#repeated(this.#effectIn(previous)!, 'in a case that falls through to a question');
        const why = this.statements(clause.statements);
        if (why !== undefined) return why;
      }
      return undefined;
    }
    if (ts.isTryStatement(statement)) {
      const why = this.statements(statement.tryBlock.statements);
      if (why !== undefined) return why;
      const elsewhere = this.#effectIn(statement.catchClause) ?? this.#effectIn(statement.finallyBlock);
      return elsewhere === undefined
        ? undefined
        : this.#repeated(elsewhere, 'in a catch or finally block around a question');
    }
    // A statement that asks: nothing may happen in it before the (last) question.
    const lastAsk = Math.max(
      ...this.askings
        .filter((node) => isInside(node, statement))
        .map((node) => node.getStart(this.context.sourceFile)),
    );
    const effect = this.#effectIn(statement);
    if (
      effect !== undefined &&
      (effect.getStart(this.context.sourceFile) < lastAsk || ts.isIterationStatement(statement, false))
    )
      return this.#repeated(effect, 'in the same statement as a question');
    return undefined;
  }

  /** Journals a statement before a question: `const x = await round.step('x', async () => …)`. */
  #wrap(statement: ts.Statement): string | undefined {
    const context = this.context;
    const style = context.style;
    if (ts.isVariableStatement(statement) && statement.declarationList.declarations.length === 1) {
      const declaration = statement.declarationList.declarations[0]!;
      if (ts.isIdentifier(declaration.name) && declaration.initializer !== undefined) {
        const key = quoteString(style, this.keys.forStep(declaration.name.text));
        const start = declaration.initializer.getStart(context.sourceFile);
        this.edits.push(
          { start, end: start, text: `await ${this.round}.step(${key}, async () => ` },
          { start: declaration.initializer.end, end: declaration.initializer.end, text: ')' },
        );
        return undefined;
      }
    }
    if (ts.isExpressionStatement(statement)) {
      const expression = unwrapExpression(statement.expression);
      const callee = ts.isAwaitExpression(expression) ? unwrapExpression(expression.expression) : expression;
      const name = callName(callee) ?? 'effect';
      const key = quoteString(style, this.keys.forStep(snakeCase(name)));
      const start = statement.expression.getStart(context.sourceFile);
      const indent = indentationAt(context.text, start);
      this.edits.push(
        {
          start,
          end: start,
          text: `await ${this.round}.step(${key}, async () => {${style.newline}${indent}${style.indentUnit}`,
        },
        {
          start: statement.expression.end,
          end: statement.expression.end,
          text: `${semicolon(style)}${style.newline}${indent}})`,
        },
      );
      return undefined;
    }
    return 'before a question, in a statement round.step cannot wrap';
  }
}

function isStringLike(context: FileContext, node: ts.Expression): boolean {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return true;
  return (context.checker.getTypeAtLocation(node).flags & ts.TypeFlags.StringLike) !== 0;
}

/** A literal zod shape: `{ file: z.string(), … }`. */
function isLiteralShape(node: ts.Expression): boolean {
  return (
    ts.isObjectLiteralExpression(node) &&
    node.properties.length > 0 &&
    node.properties.every(
      (property) =>
        ts.isPropertyAssignment(property) && ts.isCallExpression(unwrapExpression(property.initializer)),
    )
  );
}

/**
 * The edit that turns the deprecated shorthand's arguments between the name and the handler into
 * what the adapter's `register…` call takes there:
 * - `tool(name, [description], [shape], handler)`: a `registerTool` config; undefined for the
 *   overloads whose arguments only types tell apart (annotations, a non-literal shape);
 * - `prompt(name, [description], [argsShape], handler)`: a `registerPrompt` config;
 * - `resource(name, uriOrTemplate, [metadata], handler)`: the metadata, `{}` when there is none.
 */
function shorthandMiddle(context: FileContext, handler: EligibleHandler): TextEdit | undefined {
  const written = handler.registration.arguments.slice(1, -1);
  const middle = written.map((argument) => unwrapExpression(argument));
  const name = handler.registration.arguments[0];
  if (name === undefined) return undefined;
  if (handler.kind === 'resource') {
    const [uri, metadata, extra] = written;
    if (uri === undefined || extra !== undefined) return undefined;
    return metadata === undefined
      ? { start: uri.end, end: uri.end, text: ', {}' }
      : { start: metadata.end, end: metadata.end, text: '' };
  }
  if (handler.kind !== 'tool' && handler.kind !== 'prompt') return undefined;
  if (middle.length === 0) return { start: name.end, end: name.end, text: ', {}' };
  const schemaKey = handler.kind === 'tool' ? 'inputSchema' : 'argsSchema';
  const parts: string[] = [];
  for (const [index, argument] of middle.entries()) {
    const last = index === middle.length - 1;
    const description =
      index === 0 &&
      (ts.isStringLiteralLike(argument) || (handler.kind === 'prompt' && isStringLike(context, argument)));
    // A prompt has no annotations overload: whatever is not its description is its arguments.
    const shape =
      last && (isLiteralShape(argument) || (handler.kind === 'prompt' && !isStringLike(context, argument)));
    if (description) parts.push(`description: ${context.textOf(argument)}`);
    else if (shape) parts.push(`${schemaKey}: ${context.textOf(argument)}`);
    else return undefined;
  }
  return {
    start: written[0]!.getStart(context.sourceFile),
    end: written.at(-1)!.end,
    text: `{ ${parts.join(', ')} }`,
  };
}

function shorthandReason(handler: EligibleHandler): string {
  const register = `register${handler.kind[0]!.toUpperCase()}${handler.kind.slice(1)}`;
  return `the handler is registered with ${handler.access.name.text}(), whose overloads the codemod does not map here; register it with ${register}() and run again`;
}

/** The registration through the adapter: `mrtr.registerTool(server, …)`, `mrtr.requestHandler(…)`. */
function registrationEdits(
  context: FileContext,
  handler: EligibleHandler,
  adapter: string,
  ownRoundTrip: readonly string[],
): TextEdit[] | string {
  const receiver = context.textOf(handler.access.expression);
  if (handler.shorthand) {
    const middle = shorthandMiddle(context, handler);
    if (middle === undefined) return shorthandReason(handler);
  }
  if (handler.kind === 'low-level') {
    const argument = handler.registration.arguments.at(-1)!;
    const q = quoteString(context.style, handler.method);
    const head = `${adapter}.requestHandler(${receiver}, ${q}, `;
    const start = argument.getStart(context.sourceFile);
    const targets = ownRoundTrip.map((target) => quoteString(context.style, target)).join(', ');
    const options = targets === '' ? '' : `, { ownRoundTrip: [${targets}] }`;
    return [
      { start, end: start, text: head },
      { start: argument.end, end: argument.end, text: `${options})` },
    ];
  }
  const first = handler.registration.arguments[0];
  if (first === undefined) return 'the registration has no arguments';
  const firstStart = first.getStart(context.sourceFile);
  const separator = startsItsLine(context.text, firstStart)
    ? `,${context.style.newline}${indentationAt(context.text, firstStart)}`
    : ', ';
  const register = handler.shorthand
    ? `register${handler.kind[0]!.toUpperCase()}${handler.kind.slice(1)}`
    : handler.access.name.text;
  const middle = handler.shorthand ? shorthandMiddle(context, handler) : undefined;
  return [
    {
      start: handler.access.getStart(context.sourceFile),
      end: handler.access.end,
      text: `${adapter}.${register}`,
    },
    { start: firstStart, end: firstStart, text: `${receiver}${separator}` },
    ...(middle === undefined || middle.text === '' ? [] : [middle]),
  ];
}

/**
 * Plans the replay rewrite of one handler and the helper calls in it. Without `journal`, only
 * the registration, parameters and preamble: the explicit style writes its own questions.
 */
export function planReplayHandler(
  context: FileContext,
  handler: EligibleHandler,
  askings: readonly Asking[],
  adapter: string,
  journal = true,
): HandlerRewrite | string {
  const fn = handler.callback;
  const body = fn.body;
  if (body === undefined || !ts.isBlock(body)) return 'the handler has no block body to rewrite';
  const calls = askings.map((asking) => (asking.kind === 'push' ? asking.push.call : asking.call));
  const ownRoundTrip = ownRoundTripTargets(context, handler, body, calls);
  if (typeof ownRoundTrip === 'string') return ownRoundTrip;
  const template = handler.kind === 'resource' && isTemplate(handler);
  const sdkParameters =
    handler.kind === 'resource'
      ? template
        ? 3
        : 2
      : handler.kind === 'low-level' || hasArguments(context, handler)
        ? 2
        : 1;
  if (handler.shorthand && shorthandMiddle(context, handler) === undefined) return shorthandReason(handler);
  if (fn.parameters.length > sdkParameters) return 'the handler takes more parameters than the SDK passes';
  if (
    fn.parameters.some(
      (parameter) => parameter.dotDotDotToken !== undefined || parameter.initializer !== undefined,
    )
  )
    return 'the handler has a rest or defaulted parameter';
  const contextParameter =
    fn.parameters.length === sdkParameters ? fn.parameters[sdkParameters - 1] : undefined;
  if (contextParameter !== undefined && !ts.isIdentifier(contextParameter.name))
    return 'the handler destructures its extra/ctx parameter';
  const argsParameter = sdkParameters >= 2 ? fn.parameters[0] : undefined;
  const round = freshName(fn, 'round');
  // The runtime passes a resource handler `{ uri, variables }`; the SDK passed a URL and the variables.
  const resource = handler.kind === 'resource' ? freshName(fn, 'resource') : undefined;
  const resourceLocals: string[] = [];
  if (resource !== undefined) {
    const [uri, variables] = fn.parameters;
    if (uri && !ts.isIdentifier(uri.name)) return 'the resource handler destructures its URI';
    if (uri !== undefined && usesOutside(context, uri, fn.body ?? fn, []) > 0)
      resourceLocals.push(`const ${(uri.name as ts.Identifier).text} = new URL(${resource}.uri)`);
    const variablesUsed =
      variables !== undefined &&
      (!ts.isIdentifier(variables.name) || usesOutside(context, variables, fn.body ?? fn, []) > 0);
    if (template && variables !== undefined && variablesUsed)
      resourceLocals.push(`const ${context.textOf(variables.name)} = { ...${resource}.variables }`);
  }
  const imports: ImportRequest[] = [];
  const edits: TextEdit[] = [];

  const registration = registrationEdits(context, handler, adapter, ownRoundTrip ?? []);
  if (typeof registration === 'string') return registration;
  edits.push(...registration);

  const parameters = parameterListRange(context, fn);
  const argsText = resource ?? (argsParameter === undefined ? '_args' : context.textOf(argsParameter));
  // A handler declared apart from its registration gets no contextual type for `round`.
  const typedRound =
    /\.[cm]?tsx?$/.test(context.sourceFile.fileName) &&
    unwrapExpression(handler.registration.arguments.at(-1)!) !== fn;
  const typeImports: TypeImport[] = [];
  let roundType = '';
  if (typedRound) {
    const name = ROUND_TYPE[handler.generation];
    typeImports.push({ module: ADAPTER_MODULE[handler.generation], name });
    roundType = `: ${typeName(context, name)}`;
  }
  edits.push({ ...parameters, text: `(${argsText}, ${round}${roundType})` });

  const keys = new AnswerKeys(handler.name);
  const questions = new Map<ts.CallExpression, TextEdit[]>();
  // What the rewrite takes out of the body: the push calls but their params, the helpers' arguments.
  const removed: Range[] = [];
  for (const asking of askings) {
    if (asking.kind === 'push') {
      const planned = questionEdits(context, asking.push, round, keys.forQuestion(asking.push));
      if (typeof planned === 'string') return planned;
      questions.set(asking.push.call, planned.edits);
      imports.push(...planned.imports);
      typeImports.push(...planned.typeImports);
      removed.push(...planned.edits.filter((edit) => edit.end > edit.start));
    } else {
      const { helper } = asking;
      const passed = roundArgumentEdit(context, asking.call, helper.fn, helper.slot, round);
      if (typeof passed === 'string') return `it calls ${helper.name}(), but ${passed}`;
      questions.set(asking.call, [passed.edit]);
      if (passed.replaced !== undefined)
        removed.push({ start: passed.replaced.getStart(context.sourceFile), end: passed.replaced.end });
    }
  }

  const preamble = body.getStart(context.sourceFile) + 1;
  for (const local of resourceLocals)
    edits.push({
      start: preamble,
      end: preamble,
      text: `${firstLineOf(context, body)}${local}${semicolon(context.style)}`,
    });
  if (contextParameter !== undefined && usesOutside(context, contextParameter, body, removed) > 0) {
    if (
      !hasSdkType(context, contextParameter) &&
      !isUnresolvedSdkContext(
        context,
        contextParameter,
        unwrapExpression(handler.registration.arguments.at(-1)!) === fn,
      )
    )
      return `its ${context.textOf(contextParameter.name)} parameter does not have the SDK's type here (${context.checker.typeToString(context.checker.getTypeAtLocation(contextParameter.name))}), so what the code does with it is unclear`;
    const name = (contextParameter.name as ts.Identifier).text;
    const member = handler.generation === 'v1' ? 'extra' : 'ctx';
    const at = body.getStart(context.sourceFile) + 1;
    edits.push({
      start: at,
      end: at,
      text: `${firstLineOf(context, body)}const ${name} = ${round}.${member}${semicolon(context.style)}`,
    });
    if (handler.generation === 'v2')
      edits.push(...v1ContextNameEdits(context, contextParameter, body, removed));
  }

  if (!journal) return { edits, questions, imports, typeImports };
  // A question kept in a variable suspends where it is awaited: steps and catch blocks count from there.
  const askingNodes = [...calls, ...keptQuestionWaits(context, calls)];
  const local = (identifier: ts.Node) => {
    const declaration = context.checker.getSymbolAtLocation(identifier)?.valueDeclaration;
    return declaration !== undefined && declaration.pos >= body.pos && declaration.end <= body.end;
  };
  const pushes = askings.flatMap((asking) => (asking.kind === 'push' ? [asking.push] : []));
  const notifiers = removedNotifiers(fn, pushes);
  const steps = new StepPlanner(context, askingNodes, round, keys, local, (node) =>
    isNotifierUse(node, notifiers),
  );
  const why = steps.statements(body.statements);
  if (why !== undefined) return why;
  edits.push(...steps.edits);
  const completion = planUrlCompletion(context, fn, pushes);
  if (typeof completion === 'string') return completion;
  edits.push(...completion);
  const catches = catchEdits(context, fn, askingNodes, imports);
  if (typeof catches === 'string') return catches;
  edits.push(...catches);
  return { edits, questions, imports, typeImports };
}

const ROUND_TYPE: Readonly<Record<EligibleHandler['generation'], string>> = {
  v1: 'SdkV1Round',
  v2: 'SdkV2Round',
};
