import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { identifiersReferringTo } from '../../analysis/symbol-references.js';
import {
  enclosingFunction,
  findProperty,
  memberKey,
  propertyNameText,
  propertyValue,
  resolveConst,
} from '../../analysis/syntax.js';
import type { PushCall } from './push-calls.js';

// The runtime types a form's answer by its schema (`elicitForm` infers each field) and drops the
// fields the schema does not declare, where the SDK gave one loose record. A handler that reads a
// field its form never asks for (a `content.color` left from an older form) would no longer
// compile, though no client was ever asked for it; such a handler keeps the loose type.

/** How deep `const data = answer.content` copies are followed. */
const MAX_ALIASES = 3;

/** The fields a form's literal schema declares, or undefined when they cannot all be seen. */
function declaredFields(context: FileContext, params: ts.Expression): Set<string> | undefined {
  const literal = (node: ts.Expression | undefined) => {
    const value = node === undefined ? undefined : resolveConst(context.checker, node);
    return value !== undefined && ts.isObjectLiteralExpression(value) ? value : undefined;
  };
  const field = (object: ts.ObjectLiteralExpression | undefined, name: string) => {
    const property = object === undefined ? undefined : findProperty(object, name);
    return property === undefined ? undefined : literal(propertyValue(property));
  };
  const properties = field(field(literal(params), 'requestedSchema'), 'properties');
  if (properties === undefined) return undefined;
  const names = new Set<string>();
  for (const property of properties.properties) {
    const name =
      ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property)
        ? propertyNameText(property.name)
        : undefined;
    if (name === undefined) return undefined;
    names.add(name);
  }
  return names;
}

/** The expression whose value `node` passes on unchanged: past parentheses, `!`, `as` and `await`. */
function outerValue(node: ts.Expression): ts.Expression {
  let current = node;
  while (
    ts.isParenthesizedExpression(current.parent) ||
    ts.isNonNullExpression(current.parent) ||
    ts.isAsExpression(current.parent) ||
    ts.isAwaitExpression(current.parent)
  ) {
    current = current.parent;
  }
  return current;
}

/** The uses of the variable `name` declares, inside `scope`. */
function usesOf(context: FileContext, scope: ts.Node, name: ts.Identifier): ts.Identifier[] {
  const symbol = context.checker.getSymbolAtLocation(name);
  return symbol === undefined ? [] : identifiersReferringTo(context.checker, scope, symbol, name);
}

/** The fields read off a binding pattern: `{ name, email: address }` reads `name` and `email`. */
function patternFields(pattern: ts.ObjectBindingPattern, reads: Set<string>): void {
  for (const element of pattern.elements) {
    const key = element.propertyName ?? element.name;
    const name = ts.isIdentifier(key) || ts.isStringLiteral(key) ? key.text : undefined;
    if (name !== undefined && element.dotDotDotToken === undefined) reads.add(name);
  }
}

/** Collects the fields read off `content`, an expression holding the answer's content. */
function contentReads(
  context: FileContext,
  scope: ts.Node,
  content: ts.Expression,
  reads: Set<string>,
  depth: number,
): void {
  const value = outerValue(content);
  const parent = value.parent;
  if (
    (ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) &&
    parent.expression === value
  ) {
    const key = memberKey(parent);
    if (key !== undefined) reads.add(key);
    return;
  }
  if (!ts.isVariableDeclaration(parent) || parent.initializer !== value) return;
  if (ts.isObjectBindingPattern(parent.name)) patternFields(parent.name, reads);
  else if (ts.isIdentifier(parent.name) && depth < MAX_ALIASES)
    for (const use of usesOf(context, scope, parent.name))
      contentReads(context, scope, use, reads, depth + 1);
}

/** Collects the fields read off the content of `answer`, an expression holding the whole answer. */
function answerReads(context: FileContext, scope: ts.Node, answer: ts.Expression, reads: Set<string>): void {
  const value = outerValue(answer);
  const parent = value.parent;
  if (
    ts.isPropertyAccessExpression(parent) &&
    parent.expression === value &&
    parent.name.text === 'content'
  ) {
    contentReads(context, scope, parent, reads, 0);
    return;
  }
  if (!ts.isVariableDeclaration(parent) || parent.initializer !== value) return;
  if (ts.isIdentifier(parent.name)) {
    for (const use of usesOf(context, scope, parent.name)) answerReads(context, scope, use, reads);
    return;
  }
  if (!ts.isObjectBindingPattern(parent.name)) return;
  for (const element of parent.name.elements) {
    const key = element.propertyName ?? element.name;
    if (!ts.isIdentifier(key) || key.text !== 'content') continue;
    if (ts.isObjectBindingPattern(element.name)) patternFields(element.name, reads);
    else if (ts.isIdentifier(element.name))
      for (const use of usesOf(context, scope, element.name)) contentReads(context, scope, use, reads, 1);
  }
}

/**
 * Whether the handler reads a field of a form question's answer that the form's literal schema
 * does not declare: `const r = await server.server.elicitInput({ … properties: { name } })` and
 * then `r.content.color`, directly, through `const data = r.content`, or destructured.
 */
export function readsUndeclaredFields(context: FileContext, push: PushCall): boolean {
  if (push.shape !== 'elicit-form' || push.params === undefined) return false;
  const declared = declaredFields(context, push.params);
  const scope = enclosingFunction(push.call);
  if (declared === undefined || scope === undefined) return false;
  const reads = new Set<string>();
  answerReads(context, scope, push.call, reads);
  return [...reads].some((field) => !declared.has(field));
}
