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
    // Children go on the stack last first, so they come off in source order; no array per node.
    const childKeys = keys[node.type] ?? [];
    for (let k = childKeys.length - 1; k >= 0; k--) {
      const value = (node as unknown as Record<string, unknown>)[childKeys[k] as string];
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) if (isNode(value[i])) stack.push(value[i] as Node);
      } else if (isNode(value)) {
        stack.push(value);
      }
    }
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
