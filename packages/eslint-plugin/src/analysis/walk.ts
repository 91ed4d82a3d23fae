import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

type Node = TSESTree.Node;

/**
 * Visits `root` and every node below it, depth first in source order, using the parser's visitor
 * keys. `visit` returns false to skip a node's children.
 */
export function walk(
  sourceCode: Readonly<TSESLint.SourceCode>,
  root: Node,
  visit: (node: Node) => boolean | void,
): void {
  const keys = sourceCode.visitorKeys;
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (visit(node) === false) continue;
    const children: Node[] = [];
    for (const key of keys[node.type] ?? []) {
      const value = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) children.push(item);
      } else if (isNode(value)) {
        children.push(value);
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Node);
  }
}

function isNode(value: unknown): value is Node {
  return (
    typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
  );
}

/** Whether `inner` lies within `outer` (or is it). */
export function contains(outer: Node, inner: Node): boolean {
  return outer.range[0] <= inner.range[0] && inner.range[1] <= outer.range[1];
}
