import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { DefinitionType } from './definition-type.js';

type Node = TSESTree.Node;
type Scope = TSESLint.Scope.Scope;

/** Strips what does not change a value: `x!`, `x as T`, `x satisfies T`, `<T>x`, `a?.b` wrappers, `await x`. */
export function unwrap(node: Node): Node {
  let current = node;
  for (;;) {
    switch (current.type) {
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
      case AST_NODE_TYPES.ChainExpression:
        current = current.expression;
        continue;
      case AST_NODE_TYPES.AwaitExpression:
        current = current.argument;
        continue;
      default:
        return current;
    }
  }
}

/** The name of a non-computed property key or member property, or a string-literal one. */
export function propertyName(node: Node | null | undefined): string | undefined {
  if (node == null) return undefined;
  if (node.type === AST_NODE_TYPES.Identifier) return node.name;
  if (node.type === AST_NODE_TYPES.PrivateIdentifier) return undefined;
  if (node.type === AST_NODE_TYPES.Literal && typeof node.value === 'string') return node.value;
  if (node.type === AST_NODE_TYPES.TemplateLiteral && node.expressions.length === 0) {
    return node.quasis[0]?.value.cooked ?? undefined;
  }
  return undefined;
}

/** The key of a property or member access, unless it is computed from a non-literal. */
export function staticKey(
  node: TSESTree.Property | TSESTree.MemberExpression | TSESTree.PropertyDefinition,
): string | undefined {
  const key = node.type === AST_NODE_TYPES.MemberExpression ? node.property : node.key;
  // `this.#server`: private names keep their `#`, so they never match a public name.
  if (key.type === AST_NODE_TYPES.PrivateIdentifier) return `#${key.name}`;
  if (!node.computed) return key.type === AST_NODE_TYPES.Identifier ? key.name : propertyName(key);
  return propertyName(key);
}

/**
 * The variable `name` refers to from `scope`: the nearest scope up the chain that declares it (as
 * `ASTUtils.findVariable` does for a name, without loading that module's dependencies).
 */
export function findVariable(scope: Scope, name: string): TSESLint.Scope.Variable | undefined {
  for (let current: Scope | null = scope; current !== null; current = current.upper) {
    const variable = current.set.get(name);
    if (variable !== undefined) return variable;
  }
  return undefined;
}

/**
 * The expression a `const` binding is initialised with, when the binding is never reassigned.
 * `const x = <init>` gives `<init>`; anything else (let, params, imports) gives undefined.
 */
export function constInitializer(scope: Scope, identifier: TSESTree.Identifier): Node | undefined {
  const variable = findVariable(scope, identifier.name);
  const definition = variable?.defs[0];
  if (variable === undefined || definition === undefined || variable.defs.length !== 1) return undefined;
  if (definition.type !== DefinitionType.Variable) return undefined;
  const declarator = definition.node;
  if (declarator.id.type !== AST_NODE_TYPES.Identifier || declarator.init == null) return undefined;
  if (definition.parent.kind !== 'const' && variable.references.some((ref) => ref.isWrite() && !ref.init)) {
    return undefined;
  }
  return declarator.init;
}

/**
 * Follows `const` identifiers to the expression they hold (a few hops at most, so cycles and long
 * chains cannot slow linting down).
 */
export function resolveConst(scope: Scope, node: Node, hops = 4): Node {
  let current = unwrap(node);
  for (let i = 0; i < hops && current.type === AST_NODE_TYPES.Identifier; i++) {
    const init = constInitializer(scope, current);
    if (init === undefined) break;
    current = unwrap(init);
  }
  return current;
}

/** A string a node evaluates to without running anything: literals, plain templates, `const` strings. */
export function staticString(scope: Scope, node: Node | null | undefined): string | undefined {
  if (node == null) return undefined;
  const resolved = resolveConst(scope, node);
  return resolved.type === AST_NODE_TYPES.Identifier ? undefined : propertyName(resolved);
}

/** The value node of a property of an object literal, by key; spreads of `const` objects are followed. */
export function objectProperty(
  scope: Scope,
  object: TSESTree.ObjectExpression,
  key: string,
  depth = 0,
): TSESTree.Property | undefined {
  for (let i = object.properties.length - 1; i >= 0; i--) {
    const property = object.properties[i];
    if (property === undefined) continue;
    if (property.type === AST_NODE_TYPES.Property) {
      if (staticKey(property) === key) return property;
    } else if (depth < 3) {
      const spread = resolveConst(scope, property.argument);
      if (spread.type === AST_NODE_TYPES.ObjectExpression) {
        const found = objectProperty(scope, spread, key, depth + 1);
        if (found !== undefined) return found;
      }
    }
  }
  return undefined;
}

/** The object literal an expression evaluates to, following `const` bindings. */
export function asObjectLiteral(
  scope: Scope,
  node: Node | null | undefined,
): TSESTree.ObjectExpression | undefined {
  if (node == null) return undefined;
  const resolved = resolveConst(scope, node);
  return resolved.type === AST_NODE_TYPES.ObjectExpression ? resolved : undefined;
}

/** Every property of an object literal with a static key, spreads of `const` objects included. */
export function staticProperties(
  scope: Scope,
  object: TSESTree.ObjectExpression,
  depth = 0,
): { key: string; property: TSESTree.Property }[] {
  const result: { key: string; property: TSESTree.Property }[] = [];
  for (const property of object.properties) {
    if (property.type === AST_NODE_TYPES.Property) {
      const key = property.computed ? staticString(scope, property.key) : staticKey(property);
      if (key !== undefined) result.push({ key, property });
    } else if (depth < 3) {
      const spread = asObjectLiteral(scope, property.argument);
      if (spread !== undefined) result.push(...staticProperties(scope, spread, depth + 1));
    }
  }
  return result;
}

/** `a.b.c` as ['a', 'b', 'c'] for a chain of identifiers, `this` and static member accesses. */
export function memberPath(node: Node): string[] | undefined {
  const current = unwrap(node);
  if (current.type === AST_NODE_TYPES.Identifier) return [current.name];
  if (current.type === AST_NODE_TYPES.ThisExpression) return ['this'];
  if (current.type === AST_NODE_TYPES.MemberExpression) {
    const key = staticKey(current);
    const object = memberPath(current.object);
    return key === undefined || object === undefined ? undefined : [...object, key];
  }
  return undefined;
}

/** The callee of a call as written, for messages: `server.server.elicitInput`. */
export function calleeText(sourceCode: Readonly<TSESLint.SourceCode>, callee: Node): string {
  const text = sourceCode.getText(callee).replace(/\s+/g, '');
  return text.length > 60 ? `…${text.slice(-59)}` : text;
}
