import { ts } from 'ts-morph';

/** Strips parentheses, `as`/`satisfies`/`!` and type assertions around an expression. */
export function unwrapExpression(node: ts.Expression): ts.Expression {
  let current = node;
  for (;;) {
    if (
      ts.isParenthesizedExpression(current) ||
      ts.isAsExpression(current) ||
      ts.isSatisfiesExpression(current) ||
      ts.isNonNullExpression(current) ||
      ts.isTypeAssertionExpression(current)
    ) {
      current = current.expression;
    } else {
      return current;
    }
  }
}

/** Strips parentheses, and nothing else, around an expression. */
export function unwrapParentheses(node: ts.Expression): ts.Expression {
  let current = node;
  while (ts.isParenthesizedExpression(current)) current = current.expression;
  return current;
}

/** The outermost parentheses around an expression (the expression itself when there are none). */
export function outermostParentheses(node: ts.Expression): ts.Expression {
  let current = node;
  while (ts.isParenthesizedExpression(current.parent)) current = current.parent;
  return current;
}

/**
 * The text of a string literal or a template without substitutions. Given a checker, an
 * identifier of a variable that holds one value for good is followed to that value first.
 */
export function staticString(node: ts.Node | undefined, checker?: ts.TypeChecker): string | undefined {
  if (node === undefined) return undefined;
  let inner = ts.isExpression(node) ? unwrapExpression(node) : node;
  if (checker !== undefined && ts.isExpression(inner)) inner = resolveConst(checker, inner);
  return ts.isStringLiteral(inner) || ts.isNoSubstitutionTemplateLiteral(inner) ? inner.text : undefined;
}

/** The static name of a property: `a`, `'a'`, `["a"]`. */
export function propertyNameText(name: ts.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  if (ts.isPrivateIdentifier(name)) return undefined;
  if (ts.isComputedPropertyName(name)) return staticString(name.expression);
  return undefined;
}

/** The property `name` of an object literal, when it is written as `name: value` or `name`. */
export function findProperty(
  object: ts.ObjectLiteralExpression,
  name: string,
): ts.PropertyAssignment | ts.ShorthandPropertyAssignment | undefined {
  for (const property of object.properties) {
    if (
      (ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property)) &&
      propertyNameText(property.name) === name
    ) {
      return property;
    }
  }
  return undefined;
}

/** The value of a `name: value` or shorthand `name` property. */
export function propertyValue(
  property: ts.PropertyAssignment | ts.ShorthandPropertyAssignment,
): ts.Expression {
  return ts.isPropertyAssignment(property) ? property.initializer : property.name;
}

/** Whether an object literal's members can all be seen: no spreads, accessors or methods. */
export function isPlainObjectLiteral(object: ts.ObjectLiteralExpression): boolean {
  return object.properties.every((p) => ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p));
}

/**
 * Whether evaluating the expression cannot have an effect, so dropping it changes nothing:
 * literals, identifiers, `this`, property reads and object or array literals of those. Calls,
 * `new`, assignments, `++`, `await`, `delete` and getters we cannot see are effects (getters are
 * accepted for property reads, as every codemod must).
 */
export function isEffectFree(node: ts.Expression): boolean {
  const expression = unwrapExpression(node);
  if (
    ts.isIdentifier(expression) ||
    ts.isLiteralExpression(expression) ||
    expression.kind === ts.SyntaxKind.ThisKeyword ||
    expression.kind === ts.SyntaxKind.TrueKeyword ||
    expression.kind === ts.SyntaxKind.FalseKeyword ||
    expression.kind === ts.SyntaxKind.NullKeyword ||
    ts.isNoSubstitutionTemplateLiteral(expression)
  ) {
    return true;
  }
  if (ts.isPropertyAccessExpression(expression)) return isEffectFree(expression.expression);
  if (ts.isElementAccessExpression(expression))
    return isEffectFree(expression.expression) && isEffectFree(expression.argumentExpression);
  if (ts.isObjectLiteralExpression(expression)) {
    return expression.properties.every((property) =>
      ts.isPropertyAssignment(property)
        ? !ts.isComputedPropertyName(property.name) && isEffectFree(property.initializer)
        : ts.isShorthandPropertyAssignment(property),
    );
  }
  if (ts.isArrayLiteralExpression(expression)) {
    return expression.elements.every((element) => !ts.isSpreadElement(element) && isEffectFree(element));
  }
  if (ts.isArrowFunction(expression) || ts.isFunctionExpression(expression)) return true;
  return false;
}

/** The nearest enclosing statement of a node. */
export function enclosingStatement(node: ts.Node): ts.Statement | undefined {
  for (let current: ts.Node | undefined = node; current !== undefined; current = current.parent) {
    if (isStatement(current)) return current;
  }
  return undefined;
}

export function isStatement(node: ts.Node): node is ts.Statement {
  return ts.isStatement(node) || ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node);
}

/** The innermost function around `node` that has a body (not a signature written in a type). */
export function enclosingFunction(node: ts.Node): ts.FunctionLikeDeclaration | undefined {
  for (let current = node.parent; current !== undefined; current = current.parent) {
    if (
      ts.isArrowFunction(current) ||
      ts.isFunctionExpression(current) ||
      ts.isFunctionDeclaration(current) ||
      ts.isMethodDeclaration(current) ||
      ts.isGetAccessor(current) ||
      ts.isSetAccessor(current) ||
      ts.isConstructorDeclaration(current)
    )
      return current;
  }
  return undefined;
}

/** Visits every node below `root` (depth first, raw compiler nodes: no wrappers are created). */
export function forEachDescendant(root: ts.Node, visit: (node: ts.Node) => void): void {
  const walk = (node: ts.Node): void => {
    visit(node);
    ts.forEachChild(node, walk);
  };
  ts.forEachChild(root, walk);
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
