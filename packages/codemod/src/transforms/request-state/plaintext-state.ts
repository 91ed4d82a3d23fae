import {
  DEFAULT_REQUEST_STATE_OPENERS,
  DEFAULT_REQUEST_STATE_SEALERS,
  DYNAMIC_SDK_IMPORT_IN_TEXT,
  isMcpSdkModule,
  MRTR_IN_TEXT,
  PLAINTEXT_BUFFER_ENCODINGS,
  PLAINTEXT_DECODERS,
  PLAINTEXT_ENCODERS,
  REQUEST_STATE_VERIFICATION_CALLS,
  SDK_MODULE_IN_TEXT,
} from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import { forEachDescendant, propertyNameText, unwrapExpression } from '../../analysis/syntax.js';

// What the `require-sealed-request-state` lint rule reports, found the same way on TypeScript's
// syntax tree, from the same data in @mcp-mrtr/core: every site the transform leaves is still a
// lint finding, and a site it rewrites no longer is.

export const REQUEST_STATE = 'requestState';

const SEALERS: ReadonlySet<string> = new Set(DEFAULT_REQUEST_STATE_SEALERS);
const OPENERS: ReadonlySet<string> = new Set(DEFAULT_REQUEST_STATE_OPENERS);
const BUFFER_ENCODINGS: ReadonlySet<string> = new Set(PLAINTEXT_BUFFER_ENCODINGS);
const VERIFICATION = new RegExp(
  `\\b(?:${REQUEST_STATE_VERIFICATION_CALLS.map((name) => name.replace('.', '\\.')).join('|')})\\b`,
);

/** A `requestState` property of an input_required result whose value the client can read and forge. */
export interface PlaintextWrite {
  readonly property: ts.PropertyAssignment | ts.ShorthandPropertyAssignment;
  /** The value as written: what the lint rule reports. */
  readonly value: ts.Expression;
  /** How the value is produced, in the lint rule's words. */
  readonly how: string;
}

/** A decoder applied to a received requestState without verification. */
export interface UnverifiedRead {
  /** The decoder call the lint rule reports: `JSON.parse(…)`, `atob(…)` or `Buffer.from(…)`. */
  readonly call: ts.CallExpression;
  readonly decoder: string;
}

/** Strips what does not change a value, as the lint rule does: parentheses, assertions, `!`, `await`. */
export function unwrapValue(node: ts.Expression): ts.Expression {
  let current = unwrapExpression(node);
  while (ts.isAwaitExpression(current)) current = unwrapExpression(current.expression);
  return current;
}

/** `a.b.c` for a chain of identifiers, `this` and static member accesses. */
export function memberPath(node: ts.Expression): string[] | undefined {
  const current = unwrapValue(node);
  if (ts.isIdentifier(current)) return [current.text];
  if (current.kind === ts.SyntaxKind.ThisKeyword) return ['this'];
  const key = memberKey(current);
  if (key === undefined || !(ts.isPropertyAccessExpression(current) || ts.isElementAccessExpression(current)))
    return undefined;
  const object = memberPath(current.expression);
  return object === undefined ? undefined : [...object, key];
}

/** The static key of `a.key` or `a['key']`. */
export function memberKey(node: ts.Node): string | undefined {
  if (ts.isPropertyAccessExpression(node)) return ts.isIdentifier(node.name) ? node.name.text : undefined;
  if (ts.isElementAccessExpression(node)) {
    const key = unwrapExpression(node.argumentExpression);
    return ts.isStringLiteral(key) || ts.isNoSubstitutionTemplateLiteral(key) ? key.text : undefined;
  }
  return undefined;
}

export function calleeName(callee: ts.Expression): string | undefined {
  const current = unwrapValue(callee);
  return ts.isIdentifier(current) ? current.text : memberKey(current);
}

export function dottedCallee(call: ts.CallExpression): string | undefined {
  return memberPath(call.expression)?.join('.');
}

/** The symbol an identifier refers to; for `{ name }` shorthand, the value it reads. */
export function valueSymbol(checker: ts.TypeChecker, identifier: ts.Identifier): ts.Symbol | undefined {
  const parent = identifier.parent;
  return ts.isShorthandPropertyAssignment(parent) && parent.name === identifier
    ? checker.getShorthandAssignmentValueSymbol(parent)
    : checker.getSymbolAtLocation(identifier);
}

/** A variable declared with an initializer and never assigned again, as the lint rule follows them. */
export type SingleValueDeclaration = ts.VariableDeclaration & {
  readonly initializer: ts.Expression;
  readonly name: ts.Identifier;
};

function isAssignmentTarget(identifier: ts.Identifier): boolean {
  const parent = identifier.parent;
  if (ts.isBinaryExpression(parent) && parent.left === identifier) {
    const kind = parent.operatorToken.kind;
    return kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;
  }
  return (
    (ts.isPrefixUnaryExpression(parent) || ts.isPostfixUnaryExpression(parent)) &&
    (parent.operator === ts.SyntaxKind.PlusPlusToken || parent.operator === ts.SyntaxKind.MinusMinusToken)
  );
}

/** Whether a `let` or `var` is never assigned after its declaration. */
function isNeverReassigned(checker: ts.TypeChecker, declaration: SingleValueDeclaration): boolean {
  const symbol = checker.getSymbolAtLocation(declaration.name);
  let reassigned = false;
  forEachDescendant(declaration.getSourceFile(), (node) => {
    if (
      !reassigned &&
      ts.isIdentifier(node) &&
      node.text === declaration.name.text &&
      isAssignmentTarget(node)
    )
      reassigned = checker.getSymbolAtLocation(node) === symbol;
  });
  return !reassigned;
}

/** The declaration of the variable an identifier refers to, when it holds one value for good. */
export function singleValueDeclaration(
  checker: ts.TypeChecker,
  identifier: ts.Identifier,
): SingleValueDeclaration | undefined {
  const declarations = valueSymbol(checker, identifier)?.declarations ?? [];
  const declaration = declarations[0];
  if (declarations.length !== 1 || declaration === undefined || !ts.isVariableDeclaration(declaration))
    return undefined;
  if (!ts.isIdentifier(declaration.name) || declaration.initializer === undefined) return undefined;
  const list = declaration.parent;
  if (!ts.isVariableDeclarationList(list)) return undefined;
  const single = declaration as SingleValueDeclaration;
  return (list.flags & ts.NodeFlags.Const) !== 0 || isNeverReassigned(checker, single) ? single : undefined;
}

/** Follows identifiers of single-value variables to the expression they hold, a few hops at most. */
export function resolveConst(checker: ts.TypeChecker, node: ts.Expression, hops = 4): ts.Expression {
  let current = unwrapValue(node);
  for (let i = 0; i < hops && ts.isIdentifier(current); i++) {
    const declaration = singleValueDeclaration(checker, current);
    if (declaration === undefined) break;
    current = unwrapValue(declaration.initializer);
  }
  return current;
}

export function staticString(checker: ts.TypeChecker, node: ts.Expression | undefined): string | undefined {
  if (node === undefined) return undefined;
  const resolved = resolveConst(checker, node);
  return ts.isStringLiteral(resolved) || ts.isNoSubstitutionTemplateLiteral(resolved)
    ? resolved.text
    : undefined;
}

const LOGICAL_OPERATORS: ReadonlySet<ts.SyntaxKind> = new Set([
  ts.SyntaxKind.AmpersandAmpersandToken,
  ts.SyntaxKind.BarBarToken,
  ts.SyntaxKind.QuestionQuestionToken,
]);

export function isLogical(node: ts.Node): node is ts.BinaryExpression {
  return ts.isBinaryExpression(node) && LOGICAL_OPERATORS.has(node.operatorToken.kind);
}

/** A binary expression that computes a value from both sides (not logical, not an assignment). */
function isArithmeticOrComparison(node: ts.BinaryExpression): boolean {
  const kind = node.operatorToken.kind;
  return (
    !LOGICAL_OPERATORS.has(kind) &&
    kind !== ts.SyntaxKind.CommaToken &&
    !(kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment)
  );
}

/** Whether a call to a trusted sealer appears anywhere in an expression. */
function containsSealer(node: ts.Expression, depth = 0): boolean {
  if (depth > 12) return false;
  const current = unwrapValue(node);
  if (ts.isCallExpression(current)) {
    if (SEALERS.has(calleeName(current.expression) ?? '')) return true;
    return (
      containsSealer(current.expression, depth + 1) ||
      current.arguments.some((argument) => containsSealer(argument, depth + 1))
    );
  }
  if (ts.isPropertyAccessExpression(current) || ts.isElementAccessExpression(current))
    return containsSealer(current.expression, depth + 1);
  if (ts.isBinaryExpression(current) && isArithmeticOrComparison(current))
    return containsSealer(current.left, depth + 1) || containsSealer(current.right, depth + 1);
  if (ts.isTemplateExpression(current))
    return current.templateSpans.some((span) => containsSealer(span.expression, depth + 1));
  return false;
}

/** How an expression produces readable state, or undefined when it does not recognisably do so. */
export function plaintextProducer(
  checker: ts.TypeChecker,
  node: ts.Expression,
  depth = 0,
): string | undefined {
  if (depth > 4) return undefined;
  const current = resolveConst(checker, node);
  if (containsSealer(current)) return undefined;
  if (ts.isStringLiteral(current)) return 'a string literal';
  if (ts.isNoSubstitutionTemplateLiteral(current) || ts.isTemplateExpression(current))
    return 'a template string';
  if (ts.isBinaryExpression(current) && current.operatorToken.kind === ts.SyntaxKind.PlusToken)
    return 'built by string concatenation';
  if (ts.isConditionalExpression(current)) {
    return (
      plaintextProducer(checker, current.whenTrue, depth + 1) ??
      plaintextProducer(checker, current.whenFalse, depth + 1)
    );
  }
  if (isLogical(current)) return plaintextProducer(checker, current.right, depth + 1);
  if (ts.isCallExpression(current)) {
    const encoded = PLAINTEXT_ENCODERS[dottedCallee(current) ?? ''];
    if (encoded !== undefined) return encoded;
    const encoding = staticString(checker, current.arguments[0]);
    if (
      calleeName(current.expression) === 'toString' &&
      encoding !== undefined &&
      BUFFER_ENCODINGS.has(encoding)
    )
      return `${encoding} of plaintext (an encoding, not protection)`;
  }
  return undefined;
}

/** The property of an object literal with a static key, spreads of `const` objects followed. */
function objectProperty(
  checker: ts.TypeChecker,
  object: ts.ObjectLiteralExpression,
  key: string,
  depth = 0,
): ts.ObjectLiteralElementLike | undefined {
  for (let i = object.properties.length - 1; i >= 0; i--) {
    const property = object.properties[i]!;
    if (ts.isSpreadAssignment(property)) {
      if (depth >= 3) continue;
      const spread = resolveConst(checker, property.expression);
      const found = ts.isObjectLiteralExpression(spread)
        ? objectProperty(checker, spread, key, depth + 1)
        : undefined;
      if (found !== undefined) return found;
    } else if (property.name !== undefined && propertyNameText(property.name) === key) {
      return property;
    }
  }
  return undefined;
}

function climbParentheses(node: ts.Node): ts.Node {
  let parent = node.parent;
  while (ts.isParenthesizedExpression(parent)) parent = parent.parent;
  return parent;
}

/** The object is an input_required result, or the argument of the `inputRequired(…)` builder. */
export function isInputRequiredResult(checker: ts.TypeChecker, object: ts.ObjectLiteralExpression): boolean {
  const resultType = objectProperty(checker, object, 'resultType');
  if (
    resultType !== undefined &&
    ts.isPropertyAssignment(resultType) &&
    staticString(checker, resultType.initializer) === 'input_required'
  )
    return true;
  if (objectProperty(checker, object, 'inputRequests') !== undefined) return true;
  const parent = climbParentheses(object);
  return (
    ts.isCallExpression(parent) &&
    parent.arguments[0] !== undefined &&
    unwrapParentheses(parent.arguments[0]) === object &&
    calleeName(parent.expression) === 'inputRequired'
  );
}

function unwrapParentheses(node: ts.Expression): ts.Expression {
  let current = node;
  while (ts.isParenthesizedExpression(current)) current = current.expression;
  return current;
}

/** A received requestState: `x.requestState`, `ctx.mcpReq.requestState()`, or a binding named so. */
export function isRequestStateReference(checker: ts.TypeChecker, node: ts.Expression | undefined): boolean {
  if (node === undefined) return false;
  let current = unwrapValue(node);
  if (isLogical(current)) current = unwrapValue(current.left);
  if (ts.isCallExpression(current) && current.arguments.length === 0)
    current = unwrapValue(current.expression);
  if (ts.isPropertyAccessExpression(current) || ts.isElementAccessExpression(current))
    return memberKey(current) === REQUEST_STATE;
  if (!ts.isIdentifier(current)) return false;
  if (current.text === REQUEST_STATE) return true;
  const resolved = resolveConst(checker, current);
  return resolved !== current && isRequestStateReference(checker, resolved);
}

/** The name a function is known by: its own, or the variable it is assigned to. */
function functionName(node: ts.SignatureDeclaration): string | undefined {
  if (ts.isFunctionDeclaration(node)) return node.name?.text;
  const parent = node.parent;
  return (ts.isFunctionExpression(node) || ts.isArrowFunction(node)) &&
    ts.isVariableDeclaration(parent) &&
    ts.isIdentifier(parent.name)
    ? parent.name.text
    : undefined;
}

/** Whether the function around a decoder is a verifier: named as an opener, or checking a MAC itself. */
function enclosingFunctionVerifies(node: ts.Node, sourceFile: ts.SourceFile): boolean {
  for (let current = node.parent; current !== undefined; current = current.parent) {
    if (ts.isFunctionLike(current) && !ts.isFunctionTypeNode(current) && !ts.isMethodSignature(current)) {
      const name = functionName(current);
      if (name !== undefined && OPENERS.has(name)) return true;
      return VERIFICATION.test(current.getText(sourceFile));
    }
  }
  return false;
}

/** The lint rule looks only at files that import the SDK or speak MRTR. */
function mayHoldRequestState(sourceFile: ts.SourceFile): boolean {
  const text = sourceFile.text;
  if (MRTR_IN_TEXT.test(text)) return true;
  if (!SDK_MODULE_IN_TEXT.test(text)) return false;
  if (DYNAMIC_SDK_IMPORT_IN_TEXT.test(text)) return true;
  return sourceFile.statements.some((statement) => {
    const module =
      ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)
        ? statement.moduleSpecifier
        : ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference)
          ? statement.moduleReference.expression
          : undefined;
    return module !== undefined && ts.isStringLiteral(module) && isMcpSdkModule(module.text);
  });
}

/** Every plaintext requestState write and unverified read the lint rule reports in a file. */
export function findPlaintextState(
  sourceFile: ts.SourceFile,
  checker: ts.TypeChecker,
): { writes: PlaintextWrite[]; reads: UnverifiedRead[] } {
  const writes: PlaintextWrite[] = [];
  const reads: UnverifiedRead[] = [];
  if (!mayHoldRequestState(sourceFile)) return { writes, reads };
  forEachDescendant(sourceFile, (node) => {
    if (
      (ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) &&
      propertyNameText(node.name) === REQUEST_STATE &&
      ts.isObjectLiteralExpression(node.parent) &&
      isInputRequiredResult(checker, node.parent)
    ) {
      const value = ts.isPropertyAssignment(node) ? node.initializer : node.name;
      const how = plaintextProducer(checker, value);
      if (how !== undefined) writes.push({ property: node, value, how });
      return;
    }
    if (!ts.isCallExpression(node)) return;
    const decoder = dottedCallee(node);
    if (decoder === undefined || !PLAINTEXT_DECODERS.includes(decoder)) return;
    if (!isRequestStateReference(checker, node.arguments[0])) return;
    if (enclosingFunctionVerifies(node, sourceFile)) return;
    reads.push({ call: node, decoder });
  });
  return { writes, reads };
}
