import { ts } from 'ts-morph';
import type { FileContext, SiteBase } from '../../analysis/file-context.js';
import { sdkExportName } from '../../analysis/sdk-resolution.js';
import type { Site } from '../../analysis/site.js';
import {
  enclosingFunction,
  forEachDescendant,
  staticString,
  unwrapExpression,
} from '../../analysis/syntax.js';
import { removeStatement } from '../../edits/removal.js';
import type { TextEdit } from '../../edits/text-edit.js';
import { asMemberCall } from '../shared/calls.js';
import { TRANSFORM_ID } from './logging-sends.js';

const HANDLER_TODO =
  'Remove this logging/setLevel handler (2026-07-28 has no logging/setLevel; logs go to stderr or OpenTelemetry) and keep elsewhere whatever else it does.';

/** Whether the call registers a handler for `logging/setLevel` (v1 schema or v2 method string). */
export function isSetLevelRegistration(context: FileContext, call: ts.CallExpression): boolean {
  const first = call.arguments[0];
  if (first === undefined) return false;
  return (
    staticString(first) === 'logging/setLevel' ||
    sdkExportName(context.checker, unwrapExpression(first)) === 'SetLevelRequestSchema'
  );
}

function isEmptyObject(node: ts.Expression): boolean {
  const inner = unwrapExpression(node);
  return ts.isObjectLiteralExpression(inner) && inner.properties.length === 0;
}

function isConsoleCall(statement: ts.Statement): boolean {
  if (!ts.isExpressionStatement(statement)) return false;
  const expression = unwrapExpression(statement.expression);
  return (
    ts.isCallExpression(expression) &&
    ts.isPropertyAccessExpression(expression.expression) &&
    ts.isIdentifier(expression.expression.expression) &&
    expression.expression.expression.text === 'console'
  );
}

function isBareReturn(statement: ts.Statement): boolean {
  if (ts.isReturnStatement(statement)) return statement.expression === undefined;
  return ts.isBlock(statement) && statement.statements.length === 1 && isBareReturn(statement.statements[0]!);
}

/**
 * A variable only the logging code uses: assigned by setLevel handlers and otherwise read only by
 * `if (…level…) return;` guards in functions that do nothing but log. Removing the handlers
 * then changes nothing but which records the guard lets through.
 */
function isLogLevelVariable(
  context: FileContext,
  target: ts.Identifier,
  handlers: ReadonlySet<ts.Node>,
  loggingStatements: ReadonlySet<ts.Statement>,
): boolean {
  const symbol = context.checker.getSymbolAtLocation(target);
  const declaration = symbol?.valueDeclaration;
  if (symbol === undefined || declaration === undefined || !ts.isVariableDeclaration(declaration))
    return false;
  if (declaration.getSourceFile() !== context.sourceFile) return false;
  const statement = declaration.parent.parent;
  if (
    ts.isVariableStatement(statement) &&
    statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
  )
    return false;
  let onlyLogging = true;
  forEachDescendant(context.sourceFile, (node) => {
    if (!onlyLogging || !ts.isIdentifier(node) || node.text !== target.text || node === declaration.name)
      return;
    if (context.checker.getSymbolAtLocation(node) !== symbol) return;
    const inHandler = [...handlers].some((handler) => handler.pos <= node.pos && node.end <= handler.end);
    if (inHandler) return;
    onlyLogging = isInLoggingGuard(node, loggingStatements);
  });
  return onlyLogging;
}

function isInLoggingGuard(reference: ts.Node, loggingStatements: ReadonlySet<ts.Statement>): boolean {
  let guard: ts.Node | undefined = reference;
  while (guard !== undefined && !ts.isIfStatement(guard)) {
    if (ts.isFunctionLike(guard) || ts.isBlock(guard)) return false;
    guard = guard.parent;
  }
  if (guard === undefined || !ts.isIfStatement(guard) || guard.elseStatement !== undefined) return false;
  if (
    !isBareReturn(guard.thenStatement) ||
    !(guard.expression.pos <= reference.pos && reference.end <= guard.expression.end)
  )
    return false;
  const owner = enclosingFunction(guard);
  const body = owner !== undefined && 'body' in owner ? owner.body : undefined;
  if (body === undefined || !ts.isBlock(body) || guard.parent !== body) return false;
  return body.statements.every(
    (statement) =>
      (ts.isIfStatement(statement) &&
        isBareReturn(statement.thenStatement) &&
        statement.elseStatement === undefined) ||
      loggingStatements.has(statement) ||
      isConsoleCall(statement),
  );
}

/** Why a setLevel handler does more than serve logging, or undefined when it only serves logging. */
function whyNotOnlyLogging(
  context: FileContext,
  handler: ts.Expression,
  handlers: ReadonlySet<ts.Node>,
  loggingStatements: ReadonlySet<ts.Statement>,
): string | undefined {
  const fn = unwrapExpression(handler);
  if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn))
    return 'the handler is defined elsewhere, so what it does cannot be seen here';
  if (!ts.isBlock(fn.body))
    return isEmptyObject(fn.body) ? undefined : 'the handler returns something besides an empty result';
  for (const statement of fn.body.statements) {
    if (ts.isReturnStatement(statement)) {
      if (statement.expression === undefined || isEmptyObject(statement.expression)) continue;
      return 'the handler returns something besides an empty result';
    }
    if (isConsoleCall(statement) || loggingStatements.has(statement)) continue;
    if (ts.isExpressionStatement(statement)) {
      const expression = unwrapExpression(statement.expression);
      if (
        ts.isBinaryExpression(expression) &&
        expression.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
        ts.isIdentifier(expression.left) &&
        isLogLevelVariable(context, expression.left, handlers, loggingStatements)
      ) {
        continue;
      }
    }
    return `it does more than set the log level (line ${context.sourceFile.getLineAndCharacterOfPosition(statement.getStart(context.sourceFile)).line + 1})`;
  }
  return undefined;
}

/**
 * Finds `setRequestHandler(SetLevelRequestSchema | 'logging/setLevel', handler)` on SDK receivers.
 * A handler that only serves logging (sets a level variable only logging guards read, writes to
 * the console, returns `{}`) is removed with its statement; any other is left as manual work.
 */
export function analyseSetLevelHandlers(
  context: FileContext,
  loggingStatements: ReadonlySet<ts.Statement>,
): Site[] {
  const registrations: { call: ts.CallExpression; access: ts.PropertyAccessExpression }[] = [];
  forEachDescendant(context.sourceFile, (node) => {
    const member = asMemberCall(node);
    if (member?.name === 'setRequestHandler' && isSetLevelRegistration(context, member.call))
      registrations.push(member);
  });
  const handlers = new Set<ts.Node>(
    registrations.map(({ call }) => call.arguments[1]).filter((h) => h !== undefined),
  );
  const sites: Site[] = [];
  const removable: { base: SiteBase; statement: ts.ExpressionStatement; handler: ts.Expression }[] = [];
  for (const { call, access } of registrations) {
    const resolution = context.resolveMember(access);
    if (resolution.kind === 'other') continue;
    const base: SiteBase = {
      transform: TRANSFORM_ID,
      category: 'logging',
      kind: 'set-level-handler',
      node: call,
      todo: HANDLER_TODO,
    };
    if (resolution.kind === 'unresolved') {
      sites.push(
        context.manualSite(base, `the type of ${context.textOf(access.expression)} is unknown (any)`),
      );
      continue;
    }
    const statement = call.parent;
    if (!ts.isExpressionStatement(statement) || statement.expression !== call) {
      sites.push(context.manualSite(base, 'the registration is part of a larger expression'));
      continue;
    }
    const handler = call.arguments[1];
    const reason =
      handler === undefined
        ? 'the call has no handler argument'
        : whyNotOnlyLogging(context, handler, handlers, loggingStatements);
    if (reason !== undefined) {
      sites.push(context.manualSite(base, reason));
      continue;
    }
    removable.push({ base, statement, handler: handler! });
  }
  const constEdits = letToConstEdits(context, handlers, new Set(removable.map(({ handler }) => handler)));
  for (const { base, statement, handler } of removable) {
    const edits = [removeStatement(context.sourceFile, statement), ...(constEdits.get(handler) ?? [])];
    sites.push(context.rewriteSite(base, edits));
  }
  return sites;
}

/** The variables a handler assigns (`level = …`). */
function assignedVariables(context: FileContext, handler: ts.Node): ts.Symbol[] {
  const symbols: ts.Symbol[] = [];
  forEachDescendant(handler, (node) => {
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isIdentifier(node.left)
    ) {
      const symbol = context.checker.getSymbolAtLocation(node.left);
      if (symbol !== undefined) symbols.push(symbol);
    }
  });
  return symbols;
}

/**
 * Once every handler that assigned a level variable is removed, nothing reassigns it: its `let`
 * becomes `const` (as \`prefer-const\` would ask), the edit riding on the first such handler.
 */
function letToConstEdits(
  context: FileContext,
  handlers: ReadonlySet<ts.Node>,
  removed: ReadonlySet<ts.Node>,
): Map<ts.Node, TextEdit[]> {
  const writers = new Map<ts.Symbol, ts.Node[]>();
  for (const handler of handlers) {
    for (const symbol of assignedVariables(context, handler))
      writers.set(symbol, [...(writers.get(symbol) ?? []), handler]);
  }
  const edits = new Map<ts.Node, TextEdit[]>();
  for (const [symbol, assigning] of writers) {
    if (!assigning.every((handler) => removed.has(handler))) continue;
    const declaration = symbol.valueDeclaration;
    if (declaration === undefined || !ts.isVariableDeclaration(declaration)) continue;
    const list = declaration.parent;
    if (
      !ts.isVariableDeclarationList(list) ||
      (list.flags & ts.NodeFlags.Let) === 0 ||
      list.declarations.length !== 1 ||
      declaration.initializer === undefined ||
      declaration.getSourceFile() !== context.sourceFile
    )
      continue;
    const start = list.getStart(context.sourceFile);
    if (context.text.slice(start, start + 3) !== 'let') continue;
    const first = assigning[0]!;
    edits.set(first, [...(edits.get(first) ?? []), { start, end: start + 3, text: 'const' }]);
  }
  return edits;
}
