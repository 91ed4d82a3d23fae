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

/** The text of a string literal or a template without substitutions. */
export function staticString(node: ts.Node | undefined): string | undefined {
  if (node === undefined) return undefined;
  const inner = ts.isExpression(node) ? unwrapExpression(node) : node;
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

/** The innermost function-like node around `node`. */
export function enclosingFunction(node: ts.Node): ts.SignatureDeclaration | undefined {
  for (let current = node.parent; current !== undefined; current = current.parent) {
    if (ts.isFunctionLike(current)) return current;
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
