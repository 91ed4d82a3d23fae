import type { TSESTree } from '@typescript-eslint/utils';
import { memoTable, type FileAnalysis } from './file-analysis.js';
import { fileNodes, fileNodesReady } from './file-nodes.js';

/** The nodes requests and results are built with. */
export type BuildingNode = TSESTree.ObjectExpression | TSESTree.CallExpression;

/** What a node is, or undefined when it is nothing this classification knows. */
export type Classify<V> = (node: BuildingNode) => V | undefined;

/** One kind of thing the file's object literals and calls build, classified for every rule. */
export interface Classification<V> {
  /** Everything the file builds, in source order; read from `Program:exit` (see `fileNodes`). */
  inFile(file: FileAnalysis): readonly V[];
  /** What one node builds, at any time. */
  of(file: FileAnalysis, node: BuildingNode): V | undefined;
}

/** What a classification found in a file: in source order, and by node. */
interface Classified<V> {
  readonly found: readonly V[];
  /** Only the nodes something was found for: the rest are known to hold nothing. */
  readonly byNode: ReadonlyMap<TSESTree.Node, V>;
}

const NOTHING_CLASSIFIED: Classified<never> = { found: [], byNode: new Map<TSESTree.Node, never>() };

/**
 * A classification of the file's object literals and calls, computed once per file for every rule
 * that checks the same things or asks about one node. `classifierFor` gives the file's classifier,
 * or undefined when the file's text rules the things out; then nothing is found.
 *
 * Only what was found is kept: a map entry for each of the file's nodes cost more than the
 * classification itself. A rule that asks about one node during the traversal, before the lists are
 * complete, has that node classified alone.
 */
export function classification<V>(
  name: string,
  classifierFor: (file: FileAnalysis) => Classify<V> | undefined,
): Classification<V> {
  const wholeFile = memoTable<Classified<V>>(name);
  const oneNode = memoTable<V | undefined>(`${name}, one node`);

  function classified(file: FileAnalysis): Classified<V> {
    return file.memo(wholeFile, file.ast, () => {
      const classify = classifierFor(file);
      if (classify === undefined) return NOTHING_CLASSIFIED;
      const found: V[] = [];
      const byNode = new Map<TSESTree.Node, V>();
      for (const node of fileNodes(file).objectsAndCalls) {
        const value = classify(node);
        if (value === undefined) continue;
        found.push(value);
        byNode.set(node, value);
      }
      return { found, byNode };
    });
  }

  return {
    inFile: (file) => classified(file).found,
    of(file, node) {
      if (fileNodesReady(file)) return classified(file).byNode.get(node);
      return file.memo(oneNode, node, () => classifierFor(file)?.(node));
    },
  };
}
