import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { asObjectLiteral, propertyName, resolveConst, staticKey, staticString } from './ast.js';

type Node = TSESTree.Node;
type Scope = TSESLint.Scope.Scope;

/**
 * Stands for a part of a value that cannot be known without running the code (a call, a
 * parameter, a spread of something unseen). A symbol, so validators treat it as neither an object,
 * an array nor a primitive they accept, and problems about it can be told apart and dropped.
 */
export const UNKNOWN: unique symbol = Symbol('unknown');

export type StaticValue =
  string | number | boolean | null | typeof UNKNOWN | StaticValue[] | { [key: string]: StaticValue };

/** A JSON value read from source, with the node each part came from. */
export interface StaticJson {
  readonly value: StaticValue;
  /** The node behind a path (property for object members, element for array items). */
  nodeAt(path: readonly (string | number)[]): Node;
  /**
   * Whether the value at a path is not fully known: it, something it is inside of, or something
   * inside it is unknown. A problem found at such a path may be an artefact of not knowing.
   */
  touchesUnknown(path: readonly (string | number)[]): boolean;
}

const MAX_DEPTH = 12;
const MAX_NODES = 2000;

function pathKey(path: readonly (string | number)[]): string {
  return JSON.stringify(path);
}

/** Reads the JSON value an expression builds out of literals, `const` bindings and spreads of them. */
export function staticJson(scope: Scope, root: Node): StaticJson {
  const nodes = new Map<string, Node>();
  const unknown: (string | number)[][] = [];
  let budget = MAX_NODES;

  function unknownAt(path: readonly (string | number)[]): typeof UNKNOWN {
    unknown.push([...path]);
    return UNKNOWN;
  }

  function objectValue(
    object: TSESTree.ObjectExpression,
    path: (string | number)[],
    depth: number,
  ): Record<string, StaticValue> | typeof UNKNOWN {
    const result: Record<string, StaticValue> = {};
    for (const property of object.properties) {
      if (property.type === AST_NODE_TYPES.SpreadElement) {
        const spread = asObjectLiteral(scope, property.argument);
        // Keys of an unseen spread are unknown, so nothing about the object's keys can be said.
        if (spread === undefined || depth >= MAX_DEPTH) return unknownAt(path);
        const inner: Record<string, StaticValue> | typeof UNKNOWN = objectValue(spread, path, depth + 1);
        if (inner === UNKNOWN) return inner;
        Object.assign(result, inner);
        continue;
      }
      const key = property.computed ? staticString(scope, property.key) : staticKey(property);
      if (key === undefined) return unknownAt(path);
      // `key: undefined` is absent from the JSON the value serialises to.
      if (property.value.type === AST_NODE_TYPES.Identifier && property.value.name === 'undefined') continue;
      const at = [...path, key];
      nodes.set(pathKey(at), property);
      result[key] = evaluate(property.value, at, depth + 1);
    }
    return result;
  }

  function evaluate(node: Node, path: (string | number)[], depth: number): StaticValue {
    if (--budget < 0 || depth > MAX_DEPTH) return unknownAt(path);
    const current = resolveConst(scope, node);
    switch (current.type) {
      case AST_NODE_TYPES.Literal: {
        const value = current.value;
        if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
          return value;
        return value === null && !('regex' in current) && !('bigint' in current) ? null : unknownAt(path);
      }
      case AST_NODE_TYPES.TemplateLiteral: {
        const text = propertyName(current);
        return text === undefined ? unknownAt(path) : text;
      }
      case AST_NODE_TYPES.UnaryExpression: {
        if (current.operator !== '-' || current.argument.type !== AST_NODE_TYPES.Literal)
          return unknownAt(path);
        const value = current.argument.value;
        return typeof value === 'number' ? -value : unknownAt(path);
      }
      case AST_NODE_TYPES.ObjectExpression:
        return objectValue(current, path, depth);
      case AST_NODE_TYPES.ArrayExpression: {
        const items: StaticValue[] = [];
        for (const element of current.elements) {
          if (element === null || element.type === AST_NODE_TYPES.SpreadElement) return unknownAt(path);
          const at = [...path, items.length];
          nodes.set(pathKey(at), element);
          items.push(evaluate(element, at, depth + 1));
        }
        return items;
      }
      default:
        return unknownAt(path);
    }
  }

  const value = evaluate(root, [], 0);
  nodes.set(pathKey([]), root);
  return {
    value,
    nodeAt(path) {
      for (let length = path.length; length > 0; length--) {
        const node = nodes.get(pathKey(path.slice(0, length)));
        if (node !== undefined) return node;
      }
      return root;
    },
    touchesUnknown(path) {
      return unknown.some((at) => {
        const shared = Math.min(at.length, path.length);
        return at.slice(0, shared).every((segment, i) => segment === path[i]);
      });
    },
  };
}
