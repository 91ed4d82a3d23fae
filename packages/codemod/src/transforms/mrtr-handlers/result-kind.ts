import { isSensitiveName } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { unwrapExpression } from '../../analysis/syntax.js';

// What a presumed effect before a question gives back decides what the rewrite does with it:
// `round.step` journals only JSON (the runtime refuses anything else, and its type says so), so a
// result that is data is journaled, and a live object (a client, a connection) cannot be.

/**
 * - `json`: primitives, `void`/`undefined`, and plain objects and arrays of those;
 * - `live`: anything with methods or call signatures, class instances, bigint and symbols, and
 *   data with a secret-named property (`credentialVersions`), which the runtime refuses to seal;
 * - `unknown`: `any`, `unknown`, type parameters, or types that did not resolve.
 */
export type ResultKind = 'json' | 'live' | 'unknown';

const JSON_FLAGS =
  ts.TypeFlags.StringLike |
  ts.TypeFlags.NumberLike |
  ts.TypeFlags.BooleanLike |
  ts.TypeFlags.EnumLike |
  ts.TypeFlags.Void |
  ts.TypeFlags.Undefined |
  ts.TypeFlags.Null |
  ts.TypeFlags.Never;

const LIVE_FLAGS = ts.TypeFlags.BigIntLike | ts.TypeFlags.ESSymbolLike;

/** Deeper than this, a type is not looked into: it counts as unknown. */
const MAX_DEPTH = 8;

function combine(kinds: readonly ResultKind[]): ResultKind {
  if (kinds.includes('live')) return 'live';
  if (kinds.includes('unknown')) return 'unknown';
  return 'json';
}

function kindOfType(checker: ts.TypeChecker, type: ts.Type, seen: Set<ts.Type>, depth: number): ResultKind {
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.TypeParameter)) return 'unknown';
  if (type.flags & LIVE_FLAGS) return 'live';
  if (type.flags & JSON_FLAGS) return 'json';
  if (type.isUnion()) return combine(type.types.map((member) => kindOfType(checker, member, seen, depth)));
  if (!(type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection))) return 'unknown';
  // A recursive data type (a tree of plain nodes) is data at every level.
  if (seen.has(type)) return 'json';
  if (depth > MAX_DEPTH) return 'unknown';
  seen.add(type);
  if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) return 'live';
  if (checker.isArrayType(type) || checker.isTupleType(type))
    return combine(
      checker
        .getTypeArguments(type as ts.TypeReference)
        .map((element) => kindOfType(checker, element, seen, depth + 1)),
    );
  const symbol = type.getSymbol();
  if (symbol !== undefined && symbol.flags & ts.SymbolFlags.Class) return 'live';
  // An interface extending a type that does not resolve has members nobody can see.
  if (symbol !== undefined && extendsUnresolved(checker, symbol)) return 'unknown';
  const kinds: ResultKind[] = [];
  for (const property of type.getProperties()) {
    if (property.flags & (ts.SymbolFlags.Method | ts.SymbolFlags.Accessor)) return 'live';
    // No secret goes into requestState, even sealed: such a result cannot be journaled either.
    if (isSensitiveName(property.getName())) return 'live';
    kinds.push(kindOfType(checker, checker.getTypeOfSymbol(property), seen, depth + 1));
  }
  // `[key: string]: unknown` is how parsed protocol results keep fields they do not name: data.
  for (const index of checker.getIndexInfosOfType(type))
    if (!(index.type.flags & ts.TypeFlags.Unknown))
      kinds.push(kindOfType(checker, index.type, seen, depth + 1));
  return combine(kinds);
}

/** Whether a declaration of `symbol` extends or implements a type that resolves to `any`. */
function extendsUnresolved(checker: ts.TypeChecker, symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some(
    (declaration) =>
      (ts.isInterfaceDeclaration(declaration) || ts.isClassLike(declaration)) &&
      (declaration.heritageClauses ?? []).some((clause) =>
        clause.types.some((heritage) => checker.getTypeAtLocation(heritage).flags & ts.TypeFlags.Any),
      ),
  );
}

/** What the syntax alone shows a value to be, when its type does not say. */
function kindOfSyntax(expression: ts.Expression): ResultKind {
  const inner = unwrapExpression(expression);
  if (ts.isAwaitExpression(inner)) return kindOfSyntax(inner.expression);
  if (
    ts.isStringLiteralLike(inner) ||
    ts.isTemplateExpression(inner) ||
    ts.isNumericLiteral(inner) ||
    ts.isPrefixUnaryExpression(inner) ||
    ts.isPostfixUnaryExpression(inner) ||
    ts.isTypeOfExpression(inner) ||
    inner.kind === ts.SyntaxKind.TrueKeyword ||
    inner.kind === ts.SyntaxKind.FalseKeyword ||
    inner.kind === ts.SyntaxKind.NullKeyword
  )
    return 'json';
  if (ts.isBinaryExpression(inner)) {
    const operator = inner.operatorToken.kind;
    // `a ?? b`, `a || b`, `a = b` are whichever side they pick.
    if (
      operator === ts.SyntaxKind.QuestionQuestionToken ||
      operator === ts.SyntaxKind.BarBarToken ||
      operator === ts.SyntaxKind.AmpersandAmpersandToken ||
      operator === ts.SyntaxKind.EqualsToken ||
      operator === ts.SyntaxKind.CommaToken
    )
      return combine([kindOfSyntax(inner.left), kindOfSyntax(inner.right)]);
    return 'json';
  }
  if (ts.isConditionalExpression(inner))
    return combine([kindOfSyntax(inner.whenTrue), kindOfSyntax(inner.whenFalse)]);
  if (ts.isNewExpression(inner) || ts.isFunctionLike(inner) || ts.isClassExpression(inner)) return 'live';
  if (ts.isArrayLiteralExpression(inner))
    return combine(
      inner.elements.map((element) => (ts.isSpreadElement(element) ? 'unknown' : kindOfSyntax(element))),
    );
  if (ts.isObjectLiteralExpression(inner))
    return combine(
      inner.properties.map((property) => {
        if (!ts.isPropertyAssignment(property)) return 'unknown';
        if (ts.isIdentifier(property.name) && isSensitiveName(property.name.text)) return 'live';
        return kindOfSyntax(property.initializer);
      }),
    );
  return 'unknown';
}

/** What `expression` gives back once awaited: by its type when the type resolves, by its syntax otherwise. */
export function resultKind(context: FileContext, expression: ts.Expression): ResultKind {
  const checker = context.checker;
  const type = checker.getTypeAtLocation(expression);
  const awaited = checker.getAwaitedType(type) ?? type;
  const kind = kindOfType(checker, awaited, new Set(), 0);
  return kind === 'unknown' ? kindOfSyntax(expression) : kind;
}

/** Operators whose operands are data: `price / 100`, `count > limit`. */
const DATA_OPERATORS = new Set([
  ts.SyntaxKind.MinusToken,
  ts.SyntaxKind.AsteriskToken,
  ts.SyntaxKind.AsteriskAsteriskToken,
  ts.SyntaxKind.SlashToken,
  ts.SyntaxKind.PercentToken,
  ts.SyntaxKind.LessThanToken,
  ts.SyntaxKind.LessThanEqualsToken,
  ts.SyntaxKind.GreaterThanToken,
  ts.SyntaxKind.GreaterThanEqualsToken,
]);

/** Calls that read their argument as data: `JSON.stringify(reference)`, `String(count)`. */
const DATA_READERS = new Set([
  'JSON.stringify',
  'String',
  'Number',
  'encodeURIComponent',
  'parseInt',
  'parseFloat',
]);

/**
 * Whether `node` is read as data: an arithmetic or ordering operand, in a template, or given to a
 * call that serializes or converts it.
 */
function readAsData(node: ts.Identifier): boolean {
  const parent = node.parent;
  return (
    (ts.isBinaryExpression(parent) && DATA_OPERATORS.has(parent.operatorToken.kind)) ||
    ts.isTemplateSpan(parent) ||
    (ts.isCallExpression(parent) &&
      parent.expression !== node &&
      DATA_READERS.has(parent.expression.getText())) ||
    (ts.isPrefixUnaryExpression(parent) &&
      (parent.operator === ts.SyntaxKind.MinusToken || parent.operator === ts.SyntaxKind.PlusToken))
  );
}

/**
 * Whether the value bound to `name` may be a live object, by how `scope` uses it: a member read or
 * call on it, or a call of it; or given to a call or constructor, which may use it so (`await
 * ship(client, …)`), unless it is also read as a number or a string. An unknown result used so is
 * taken to be live: journaled, a client would fail every call.
 */
export function usedAsObject(context: FileContext, name: ts.BindingName, scope: ts.Node): boolean {
  if (!ts.isIdentifier(name)) return true;
  const symbol = context.checker.getSymbolAtLocation(name);
  let usedSo = false;
  let passedOn = false;
  let asData = false;
  const visit = (node: ts.Node): void => {
    if (usedSo) return;
    if (ts.isIdentifier(node) && node !== name && node.text === name.text) {
      const same = symbol === undefined || context.checker.getSymbolAtLocation(node) === symbol;
      const parent = node.parent;
      if (same) {
        if (
          ((ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) &&
            parent.expression === node) ||
          ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.expression === node)
        ) {
          usedSo = true;
          return;
        }
        if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.expression !== node)
          passedOn = true;
        if (readAsData(node)) asData = true;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(scope);
  return usedSo || (passedOn && !asData);
}
