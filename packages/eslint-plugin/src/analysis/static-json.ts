import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
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

type Segment = string | number;

/**
 * Where a part of the value is, and the node it was read from. Parts are kept as a tree rather
 * than by path strings: paths are only needed for the few parts a problem is reported at.
 */
interface Part {
  readonly node: Node;
  readonly parent: Part | undefined;
  readonly segment: Segment | undefined;
  children: Map<Segment, Part> | undefined;
}

function child(parent: Part, segment: Segment, node: Node): Part {
  const part: Part = { node, parent, segment, children: undefined };
  (parent.children ??= new Map()).set(segment, part);
  return part;
}

function pathOf(part: Part): Segment[] {
  const path: Segment[] = [];
  for (let at: Part | undefined = part; at?.segment !== undefined; at = at.parent) path.push(at.segment);
  return path.reverse();
}

/** Reads the JSON value an expression builds out of literals, `const` bindings and spreads of them. */
export function staticJson(scope: Scope, root: Node): StaticJson {
  const top: Part = { node: root, parent: undefined, segment: undefined, children: undefined };
  const unknown: Segment[][] = [];
  let budget = MAX_NODES;

  function unknownAt(part: Part): typeof UNKNOWN {
    unknown.push(pathOf(part));
    return UNKNOWN;
  }

  function objectValue(
    object: TSESTree.ObjectExpression,
    part: Part,
    depth: number,
  ): Record<string, StaticValue> | typeof UNKNOWN {
    const result: Record<string, StaticValue> = {};
    for (const property of object.properties) {
      if (property.type === AST_NODE_TYPES.SpreadElement) {
        const spread = asObjectLiteral(scope, property.argument);
        // Keys of an unseen spread are unknown, so nothing about the object's keys can be said.
        if (spread === undefined || depth >= MAX_DEPTH) return unknownAt(part);
        const inner: Record<string, StaticValue> | typeof UNKNOWN = objectValue(spread, part, depth + 1);
        if (inner === UNKNOWN) return inner;
        Object.assign(result, inner);
        continue;
      }
      const key = property.computed ? staticString(scope, property.key) : staticKey(property);
      if (key === undefined) return unknownAt(part);
      // `key: undefined` is absent from the JSON the value serialises to.
      if (property.value.type === AST_NODE_TYPES.Identifier && property.value.name === 'undefined') continue;
      result[key] = evaluate(property.value, child(part, key, property), depth + 1);
    }
    return result;
  }

  function evaluate(node: Node, part: Part, depth: number): StaticValue {
    if (--budget < 0 || depth > MAX_DEPTH) return unknownAt(part);
    const current = resolveConst(scope, node);
    switch (current.type) {
      case AST_NODE_TYPES.Literal: {
        const value = current.value;
        if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
          return value;
        return value === null && !('regex' in current) && !('bigint' in current) ? null : unknownAt(part);
      }
      case AST_NODE_TYPES.TemplateLiteral: {
        const text = propertyName(current);
        return text === undefined ? unknownAt(part) : text;
      }
      case AST_NODE_TYPES.UnaryExpression: {
        if (current.operator !== '-' || current.argument.type !== AST_NODE_TYPES.Literal)
          return unknownAt(part);
        const value = current.argument.value;
        return typeof value === 'number' ? -value : unknownAt(part);
      }
      case AST_NODE_TYPES.ObjectExpression:
        return objectValue(current, part, depth);
      case AST_NODE_TYPES.ArrayExpression: {
        const items: StaticValue[] = [];
        for (const element of current.elements) {
          if (element === null || element.type === AST_NODE_TYPES.SpreadElement) return unknownAt(part);
          items.push(evaluate(element, child(part, items.length, element), depth + 1));
        }
        return items;
      }
      default:
        return unknownAt(part);
    }
  }

  const value = evaluate(root, top, 0);
  return {
    value,
    nodeAt(path) {
      let node = root;
      let part: Part | undefined = top;
      for (const segment of path) {
        part = part.children?.get(segment);
        if (part === undefined) break;
        node = part.node;
      }
      return node;
    },
    touchesUnknown(path) {
      return unknown.some((at) => {
        const shared = Math.min(at.length, path.length);
        for (let i = 0; i < shared; i++) if (at[i] !== path[i]) return false;
        return true;
      });
    },
  };
}
