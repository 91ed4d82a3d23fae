import {
  DEFAULT_REQUEST_STATE_OPENERS,
  DEFAULT_REQUEST_STATE_SEALERS,
  isPlaintextBufferEncoding,
  MRTR_IN_TEXT,
  PLAINTEXT_DECODERS,
  PLAINTEXT_ENCODERS,
  REQUEST_STATE_VERIFICATION_CALLS,
} from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import { importsMcpSdk } from '../../analysis/sdk-imports.js';
import {
  calleeName,
  dottedCallee,
  forEachDescendant,
  memberKey,
  outermostParentheses,
  propertyNameText,
  resolveConst,
  staticString,
  unwrapParentheses,
  unwrapValue,
} from '../../analysis/syntax.js';
import { isReceivedRequestState } from './received-state.js';

// What the `require-sealed-request-state` lint rule reports, found the same way on TypeScript's
// syntax tree, from the same data in @mcp-mrtr/core: every site the transform leaves is still a
// lint finding, and a site it rewrites no longer is.

export const REQUEST_STATE = 'requestState';

const SEALERS: ReadonlySet<string> = new Set(DEFAULT_REQUEST_STATE_SEALERS);
const OPENERS: ReadonlySet<string> = new Set(DEFAULT_REQUEST_STATE_OPENERS);
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
    const encoding = staticString(current.arguments[0], checker);
    if (calleeName(current.expression) === 'toString' && isPlaintextBufferEncoding(encoding))
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

/** The object is an input_required result, or the argument of the `inputRequired(…)` builder. */
export function isInputRequiredResult(checker: ts.TypeChecker, object: ts.ObjectLiteralExpression): boolean {
  const resultType = objectProperty(checker, object, 'resultType');
  if (
    resultType !== undefined &&
    ts.isPropertyAssignment(resultType) &&
    staticString(resultType.initializer, checker) === 'input_required'
  )
    return true;
  if (objectProperty(checker, object, 'inputRequests') !== undefined) return true;
  const parent = outermostParentheses(object).parent;
  return (
    ts.isCallExpression(parent) &&
    parent.arguments[0] !== undefined &&
    unwrapParentheses(parent.arguments[0]) === object &&
    calleeName(parent.expression) === 'inputRequired'
  );
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
  return MRTR_IN_TEXT.test(sourceFile.text) || importsMcpSdk(sourceFile);
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
    // A client decoding what it received inspects state (no-request-state-inspection), as the lint sees it.
    if (isReceivedRequestState(checker, node.arguments[0]!)) return;
    if (enclosingFunctionVerifies(node, sourceFile)) return;
    reads.push({ call: node, decoder });
  });
  return { writes, reads };
}
