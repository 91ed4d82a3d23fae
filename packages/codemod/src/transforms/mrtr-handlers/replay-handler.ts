import { isMcpSdkDeclarationFile, RUNTIME_PACKAGE } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { findProperty, unwrapExpression } from '../../analysis/syntax.js';
import { isUnresolvedSdkContext } from '../../analysis/unresolved-sdk-evidence.js';
import type { ImportRequest } from '../../edits/imports.js';
import { indentationAt, startsItsLine } from '../../edits/line-ranges.js';
import { reindentedText } from '../../edits/reindent.js';
import { braces, quoteString, semicolon } from '../../edits/source-style.js';
import type { TextEdit } from '../../edits/text-edit.js';
import { ADAPTER_MODULE } from './adapter-setup.js';
import { finallyGuardEdits } from './finally-guard.js';
import { ownRoundTripTargets } from './own-round-trip.js';
import { AnswerKeys } from './answer-keys.js';
import { keptQuestionWaits } from './awaited-question.js';
import type { EligibleHandler, HandlerFunction } from './eligible-handlers.js';
import type { Helper } from './placement.js';
import type { PushCall } from './push-calls.js';
import { questionEdits } from './question-edits.js';
import { roundArgumentEdit } from './round-parameter.js';
import { planSteps } from './step-planner.js';
import { typeName, type TypeImport } from './type-imports.js';
import { isNotifierUse, planUrlCompletion, removedNotifiers } from './url-mode-question.js';
import { keptContextElements, unusedSenderEdits } from './taken-senders.js';
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
  /** Presumed effects left to run again each round, for the report to list (step-planner.ts). */
  readonly notes?: readonly string[];
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

/**
 * A new parameter list in place of `range`: on one line, or one parameter per line at the
 * depth the old list used when its first parameter stood on a line of its own.
 */
function parameterListText(context: FileContext, range: Range, parameters: readonly string[]): string {
  const { text, style } = context;
  const inside = text.slice(range.start + 1, range.end - 1);
  const firstOwnLine = /^\([ \t]*\r?\n/.test(text.slice(range.start, range.end));
  if (text[range.start] !== '(' || !firstOwnLine) return `(${parameters.join(', ')})`;
  const indent = /\n([ \t]*)\S/.exec(inside)?.[1] ?? indentationAt(text, range.start) + style.indentUnit;
  const comma = style.trailingCommas ? ',' : '';
  const lines = parameters.map((parameter) => `${style.newline}${indent}${parameter}`).join(',');
  return `(${lines}${comma}${style.newline}${indentationAt(text, range.end - 1)})`;
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

/**
 * Catch blocks around an asking that would swallow the suspension get `if (isSuspension(e)) throw e;`,
 * in a handler and in a helper it calls alike: a suspension caught anywhere on the way fails the call.
 * A try statement whose finally block runs only when it did not suspend (finally-guard.ts) has its
 * flag set there first: `suspended = isSuspension(e);`.
 */
export function catchEdits(
  context: FileContext,
  fn: ts.Node,
  askings: readonly ts.Node[],
  imports: ImportRequest[],
  flags: ReadonlyMap<ts.TryStatement, string> = new Map(),
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
    const line = firstLineOf(context, clause.block);
    const end = semicolon(context.style);
    const flag = flags.get(statement);
    const marked = flag === undefined ? '' : `${line}${flag} = ${isSuspension.local}(${name})${end}`;
    edits.push({
      start: at,
      end: at,
      text: `${marked}${line}if (${isSuspension.local}(${name})) throw ${name}${end}`,
    });
  }
  return edits;
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
  const parts: { key: string; value: ts.Expression }[] = [];
  for (const [index, argument] of middle.entries()) {
    const last = index === middle.length - 1;
    const description =
      index === 0 &&
      (ts.isStringLiteralLike(argument) || (handler.kind === 'prompt' && isStringLike(context, argument)));
    // A prompt has no annotations overload: whatever is not its description is its arguments.
    const shape =
      last && (isLiteralShape(argument) || (handler.kind === 'prompt' && !isStringLike(context, argument)));
    if (description) parts.push({ key: 'description', value: argument });
    else if (shape) parts.push({ key: schemaKey, value: argument });
    else return undefined;
  }
  const start = written[0]!.getStart(context.sourceFile);
  return { start, end: written.at(-1)!.end, text: configText(context, parts, start) };
}

/**
 * `{ description: …, inputSchema: … }` from arguments that were written apart. Packed on one line
 * when they were; one property per line, one level deeper than the line they started on, when
 * they stood on lines of their own or one of them spanned several.
 */
function configText(
  context: FileContext,
  parts: readonly { key: string; value: ts.Expression }[],
  start: number,
): string {
  const { sourceFile, style } = context;
  const multiLine =
    startsItsLine(context.text, start) ||
    parts.some(({ value }) => context.text.slice(value.getStart(sourceFile), value.end).includes('\n'));
  if (!multiLine)
    return braces(style, parts.map(({ key, value }) => `${key}: ${context.textOf(value)}`).join(', '));
  const indent = indentationAt(context.text, start);
  const inner = indent + style.indentUnit;
  const properties = parts.map(
    ({ key, value }) => `${inner}${key}: ${reindentedText(sourceFile, value, inner)}`,
  );
  const comma = style.trailingCommas ? ',' : '';
  return `{${style.newline}${properties.join(`,${style.newline}`)}${comma}${style.newline}${indent}}`;
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
  if (
    contextParameter !== undefined &&
    !ts.isIdentifier(contextParameter.name) &&
    !(handler.generation === 'v1' && ts.isObjectBindingPattern(contextParameter.name))
  )
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
  edits.push({
    ...parameters,
    text: parameterListText(context, parameters, [argsText, `${round}${roundType}`]),
  });

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

  // Senders taken off the context in the body (`const { sendRequest } = extra`) that only asked go.
  const pushes = askings.flatMap((asking) => (asking.kind === 'push' ? [asking.push] : []));
  const senders = unusedSenderEdits(context, fn, pushes, removed);
  edits.push(...senders.edits);
  removed.push(...senders.removed);

  const preamble = body.getStart(context.sourceFile) + 1;
  for (const local of resourceLocals)
    edits.push({
      start: preamble,
      end: preamble,
      text: `${firstLineOf(context, body)}${local}${semicolon(context.style)}`,
    });
  // `async (args, { sendRequest, signal }) => …`: what the body still uses is taken off the round's extra.
  const pattern =
    contextParameter !== undefined && ts.isObjectBindingPattern(contextParameter.name)
      ? contextParameter.name
      : undefined;
  const kept = pattern === undefined ? [] : keptContextElements(context, pattern, body, removed);
  if (typeof kept === 'string') return kept;
  const used =
    pattern === undefined
      ? contextParameter !== undefined && usesOutside(context, contextParameter, body, removed) > 0
      : kept.length > 0;
  if (contextParameter !== undefined && used) {
    if (
      !hasSdkType(context, contextParameter) &&
      !isUnresolvedSdkContext(
        context,
        contextParameter,
        unwrapExpression(handler.registration.arguments.at(-1)!) === fn,
      )
    )
      return `its ${context.textOf(contextParameter.name)} parameter does not have the SDK's type here (${context.checker.typeToString(context.checker.getTypeAtLocation(contextParameter.name))}), so what the code does with it is unclear`;
    const name =
      pattern === undefined ? context.textOf(contextParameter.name) : braces(context.style, kept.join(', '));
    const member = handler.generation === 'v1' ? 'extra' : 'ctx';
    edits.push({
      start: preamble,
      end: preamble,
      text: `${firstLineOf(context, body)}const ${name} = ${round}.${member}${semicolon(context.style)}`,
    });
    if (handler.generation === 'v2')
      edits.push(...v1ContextNameEdits(context, contextParameter, body, removed));
  }

  if (!journal) return { edits, questions, imports, typeImports };
  // A question kept in a variable suspends where it is awaited: steps and catch blocks count from there.
  const askingNodes = [...calls, ...keptQuestionWaits(context, calls)];
  const notifiers = removedNotifiers(fn, pushes);
  const steps = planSteps(
    context,
    fn,
    askingNodes,
    round,
    keys,
    (node) => isNotifierUse(node, notifiers),
    'handler',
  );
  if (typeof steps === 'string') return steps;
  edits.push(...steps.edits);
  const completion = planUrlCompletion(context, fn, pushes);
  if (typeof completion === 'string') return completion;
  edits.push(...completion);
  const guards = finallyGuardEdits(context, fn, steps.guardedFinally, imports, steps.edits);
  edits.push(...guards.edits);
  const catches = catchEdits(context, fn, askingNodes, imports, guards.flags);
  if (typeof catches === 'string') return catches;
  edits.push(...catches);
  return { edits, questions, imports, typeImports, notes: steps.notes };
}

const ROUND_TYPE: Readonly<Record<EligibleHandler['generation'], string>> = {
  v1: 'SdkV1Round',
  v2: 'SdkV2Round',
};
