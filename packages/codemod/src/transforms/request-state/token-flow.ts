import { isPlaintextBufferEncoding } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import {
  dottedCallee,
  memberKey,
  outermostParentheses,
  propertyNameText,
  staticString,
  unwrapExpression,
  valueSymbol,
} from '../../analysis/syntax.js';
import { isInputRequiredResult, REQUEST_STATE } from './plaintext-state.js';

// Where a handler uses the requestState it received. Sealing changes what the token is, so the
// transform rewrites a handler only when it can account for every use of it.

const TEXT_CHARSETS: ReadonlySet<string> = new Set(['utf8', 'utf-8']);

/** `JSON.parse(<decode>(token))`: what opening the sealed state replaces. */
export interface TokenDecode {
  readonly kind: 'decode';
  /** The token as written (with any `!` or `as`), kept byte for byte. */
  readonly token: ts.Expression;
  readonly parse: ts.CallExpression;
  /** The call the lint rule reports: `atob(…)`, `Buffer.from(…)`, or `JSON.parse(…)` itself. */
  readonly decoder: ts.CallExpression;
  /** The string literal parsed when the token is absent: `JSON.parse(token ?? '{}')`. */
  readonly fallback?: ts.StringLiteralLike;
}

/**
 * How the handler uses one reference to its received token: decoded as JSON, tested for presence,
 * echoed back as the next round's requestState, copied into another name, or anything else.
 */
export type TokenUse =
  | TokenDecode
  | { readonly kind: 'test' | 'echo' | 'alias' }
  | { readonly kind: 'other'; readonly node: ts.Expression };

interface Climbed {
  /** The node with the parentheses around it. */
  readonly node: ts.Expression;
  readonly parent: ts.Node;
}

function climbParentheses(node: ts.Expression): Climbed {
  const outer = outermostParentheses(node);
  return { node: outer, parent: outer.parent };
}

/** Climbs what does not change the token: parentheses, `!`, `as`, `satisfies`, `<T>`. */
function climbWrappers(node: ts.Expression): ts.Expression {
  let current = node;
  for (;;) {
    const parent = current.parent;
    if (
      ts.isParenthesizedExpression(parent) ||
      ts.isNonNullExpression(parent) ||
      ts.isAsExpression(parent) ||
      ts.isSatisfiesExpression(parent) ||
      ts.isTypeAssertionExpression(parent)
    ) {
      current = parent;
    } else {
      return current;
    }
  }
}

function isNullish(node: ts.Expression): boolean {
  const current = unwrapExpression(node);
  return (
    current.kind === ts.SyntaxKind.NullKeyword ||
    (ts.isIdentifier(current) && current.text === 'undefined') ||
    (ts.isVoidExpression(current) && ts.isNumericLiteral(current.expression))
  );
}

const EQUALITY: ReadonlySet<ts.SyntaxKind> = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

/** Whether a value is only tested: a condition, `!x`, `x === undefined`, `typeof x === '…'`. */
function isPresenceTest(node: ts.Expression): boolean {
  const { node: outer, parent } = climbParentheses(node);
  if (
    (ts.isIfStatement(parent) || ts.isWhileStatement(parent) || ts.isDoStatement(parent)) &&
    parent.expression === outer
  )
    return true;
  if ((ts.isForStatement(parent) || ts.isConditionalExpression(parent)) && parent.condition === outer)
    return true;
  if (ts.isPrefixUnaryExpression(parent)) return parent.operator === ts.SyntaxKind.ExclamationToken;
  if (ts.isTypeOfExpression(parent)) {
    const comparison = climbParentheses(parent).parent;
    return ts.isBinaryExpression(comparison) && EQUALITY.has(comparison.operatorToken.kind);
  }
  if (!ts.isBinaryExpression(parent)) return false;
  const operator = parent.operatorToken.kind;
  if (operator === ts.SyntaxKind.AmpersandAmpersandToken || operator === ts.SyntaxKind.BarBarToken)
    return isPresenceTest(parent);
  return EQUALITY.has(operator) && isNullish(parent.left === outer ? parent.right : parent.left);
}

function isCallOf(node: ts.Node, callee: string): node is ts.CallExpression {
  return ts.isCallExpression(node) && dottedCallee(node) === callee;
}

/** `JSON.parse(token)`, `JSON.parse(atob(token))`, `JSON.parse(Buffer.from(token, 'base64').toString())`. */
function decodeOf(checker: ts.TypeChecker, token: ts.Expression): TokenDecode | undefined {
  let { node, parent } = climbParentheses(token);
  let decoder: ts.CallExpression | undefined;
  let fallback: ts.StringLiteralLike | undefined;
  if (
    ts.isBinaryExpression(parent) &&
    parent.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken &&
    parent.left === node
  ) {
    const right = unwrapExpression(parent.right);
    if (!ts.isStringLiteralLike(right)) return undefined;
    fallback = right;
    ({ node, parent } = climbParentheses(parent));
  } else if (isCallOf(parent, 'atob') && parent.arguments.length === 1 && parent.arguments[0] === node) {
    decoder = parent;
    ({ node, parent } = climbParentheses(parent));
  } else if (
    isCallOf(parent, 'Buffer.from') &&
    parent.arguments.length === 2 &&
    parent.arguments[0] === node &&
    isPlaintextBufferEncoding(staticString(parent.arguments[1], checker))
  ) {
    const access = climbParentheses(parent);
    const toString = access.parent.parent;
    if (
      !ts.isPropertyAccessExpression(access.parent) ||
      access.parent.name.text !== 'toString' ||
      toString === undefined ||
      !ts.isCallExpression(toString) ||
      toString.expression !== access.parent ||
      toString.arguments.length > 1 ||
      (toString.arguments.length === 1 &&
        !TEXT_CHARSETS.has(staticString(toString.arguments[0], checker) ?? ''))
    )
      return undefined;
    decoder = parent;
    ({ node, parent } = climbParentheses(toString));
  }
  if (!isCallOf(parent, 'JSON.parse') || parent.arguments.length !== 1 || parent.arguments[0] !== node)
    return undefined;
  return { kind: 'decode', token, parse: parent, decoder: decoder ?? parent, ...(fallback && { fallback }) };
}

function isTypePosition(node: ts.Node): boolean {
  for (let current: ts.Node | undefined = node; current !== undefined; current = current.parent) {
    if (ts.isTypeNode(current)) return true;
    if (ts.isStatement(current) || ts.isFunctionLike(current)) return false;
  }
  return false;
}

function isDeclarationName(identifier: ts.Identifier): boolean {
  const parent = identifier.parent;
  return (
    ((ts.isVariableDeclaration(parent) || ts.isParameter(parent)) && parent.name === identifier) ||
    (ts.isBindingElement(parent) && (parent.name === identifier || parent.propertyName === identifier))
  );
}

/** The token a handler received, and the names it was copied into. */
class TokenNames {
  readonly #aliases = new Set<ts.Symbol>();

  constructor(
    private readonly checker: ts.TypeChecker,
    handler: ts.SignatureDeclaration,
  ) {
    const copies: { readonly name: ts.Identifier; readonly initializer: ts.Expression }[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isBindingElement(node) && ts.isIdentifier(node.name)) {
        const key = node.propertyName === undefined ? node.name.text : propertyNameText(node.propertyName);
        if (key === REQUEST_STATE) this.#add(node.name);
      } else if (ts.isParameter(node) && ts.isIdentifier(node.name) && node.name.text === REQUEST_STATE) {
        this.#add(node.name);
      } else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        copies.push({ name: node.name, initializer: node.initializer });
      }
      ts.forEachChild(node, visit);
    };
    visit(handler);
    for (let grew = true; grew;) {
      grew = false;
      for (const copy of copies) {
        const symbol = checker.getSymbolAtLocation(copy.name);
        if (symbol === undefined || this.#aliases.has(symbol)) continue;
        if (this.isToken(copy.initializer)) {
          this.#aliases.add(symbol);
          grew = true;
        }
      }
    }
  }

  #add(name: ts.Identifier): void {
    const symbol = this.checker.getSymbolAtLocation(name);
    if (symbol !== undefined) this.#aliases.add(symbol);
  }

  /** Whether an expression is the received token itself (not something computed from it). */
  isToken(node: ts.Expression): boolean {
    const current = unwrapExpression(node);
    if (ts.isCallExpression(current))
      return (
        current.arguments.length === 0 && memberKey(unwrapExpression(current.expression)) === REQUEST_STATE
      );
    if (ts.isPropertyAccessExpression(current) || ts.isElementAccessExpression(current))
      return memberKey(current) === REQUEST_STATE;
    return ts.isIdentifier(current) && this.isAlias(current);
  }

  isAlias(identifier: ts.Identifier): boolean {
    const symbol = valueSymbol(this.checker, identifier);
    return symbol !== undefined && this.#aliases.has(symbol);
  }
}

/** Every reference to the received token inside a handler, with how it is used. */
export function tokenUses(
  checker: ts.TypeChecker,
  handler: ts.SignatureDeclaration,
): { readonly reference: ts.Expression; readonly use: TokenUse }[] {
  const names = new TokenNames(checker, handler);
  const references: ts.Expression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTypeNode(node)) return;
    if (ts.isCallExpression(node) && node.arguments.length === 0 && names.isToken(node)) {
      references.push(node);
      return;
    }
    if (
      (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) &&
      memberKey(node) === REQUEST_STATE &&
      !(ts.isCallExpression(node.parent) && node.parent.expression === node)
    ) {
      references.push(node);
    } else if (
      ts.isIdentifier(node) &&
      !isDeclarationName(node) &&
      !isTypePosition(node) &&
      names.isAlias(node)
    ) {
      references.push(node);
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(handler, visit);
  return references.map((reference) => ({ reference, use: useOf(checker, names, reference) }));
}

function useOf(checker: ts.TypeChecker, names: TokenNames, reference: ts.Expression): TokenUse {
  const outer = climbWrappers(reference);
  const parent = outer.parent;
  if (ts.isVariableDeclaration(parent) && parent.initializer === outer && ts.isIdentifier(parent.name)) {
    return names.isAlias(parent.name) ? { kind: 'alias' } : { kind: 'other', node: reference };
  }
  const echoed =
    (ts.isPropertyAssignment(parent) && parent.initializer === outer) ||
    (ts.isShorthandPropertyAssignment(parent) && parent.name === outer);
  if (
    echoed &&
    propertyNameText(parent.name) === REQUEST_STATE &&
    ts.isObjectLiteralExpression(parent.parent) &&
    isInputRequiredResult(checker, parent.parent)
  )
    return { kind: 'echo' };
  if (isPresenceTest(outer)) return { kind: 'test' };
  return decodeOf(checker, outer) ?? { kind: 'other', node: reference };
}
