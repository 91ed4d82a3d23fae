import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { memoTable, type FileAnalysis, type MemoTable } from './file-analysis.js';

/** The nodes the shared analyses start from, each kind in source order. */
export interface FileNodes {
  readonly calls: readonly TSESTree.CallExpression[];
  readonly news: readonly TSESTree.NewExpression[];
  readonly objects: readonly TSESTree.ObjectExpression[];
  /** Properties of object literals (not of patterns). */
  readonly properties: readonly TSESTree.Property[];
  readonly assignments: readonly TSESTree.AssignmentExpression[];
  /** Object literals and calls together, in source order: where requests and results are built. */
  readonly objectsAndCalls: readonly (TSESTree.ObjectExpression | TSESTree.CallExpression)[];
}

/** A step of ESLint's traversal (`@eslint/plugin-kit`'s `VisitNodeStep`; kind 2 is a code path event). */
interface TraversalStep {
  readonly kind: number;
  readonly phase?: number;
  readonly target: unknown;
}

/** ESLint 10's `SourceCode#traverse()`, which the typescript-eslint types do not declare. */
interface TraversableSourceCode {
  traverse(): readonly TraversalStep[];
}

const FILE_NODES = memoTable<FileNodes>('file nodes');

/**
 * The file's calls, `new` expressions, object literals, their properties and assignments. They are
 * read from the traversal ESLint made for the file before any rule ran (`SourceCode#traverse()`
 * caches its steps), so the analyses several rules share run once per file, in one `Program`
 * listener, rather than in a listener of every rule on every such node.
 */
export function fileNodes(file: FileAnalysis): FileNodes {
  return file.memo(FILE_NODES, file.sourceCode.ast, () => {
    const calls: TSESTree.CallExpression[] = [];
    const news: TSESTree.NewExpression[] = [];
    const objects: TSESTree.ObjectExpression[] = [];
    const properties: TSESTree.Property[] = [];
    const assignments: TSESTree.AssignmentExpression[] = [];
    const objectsAndCalls: (TSESTree.ObjectExpression | TSESTree.CallExpression)[] = [];
    for (const step of (file.sourceCode as unknown as TraversableSourceCode).traverse()) {
      if (step.kind !== 1 || step.phase !== 1) continue;
      const node = step.target as TSESTree.Node;
      switch (node.type) {
        case AST_NODE_TYPES.CallExpression:
          calls.push(node);
          objectsAndCalls.push(node);
          break;
        case AST_NODE_TYPES.NewExpression:
          news.push(node);
          break;
        case AST_NODE_TYPES.ObjectExpression:
          objects.push(node);
          objectsAndCalls.push(node);
          break;
        case AST_NODE_TYPES.Property:
          if (node.parent.type === AST_NODE_TYPES.ObjectExpression) properties.push(node);
          break;
        case AST_NODE_TYPES.AssignmentExpression:
          assignments.push(node);
          break;
        default:
          break;
      }
    }
    return { calls, news, objects, properties, assignments, objectsAndCalls };
  });
}

/** What a classification found in a file: in source order, and by node. */
export interface Classified<V> {
  readonly found: readonly V[];
  /** Only the nodes something was found for: the rest are known to hold nothing. */
  readonly byNode: ReadonlyMap<TSESTree.Node, V>;
}

const NOTHING_CLASSIFIED: Classified<never> = { found: [], byNode: new Map<TSESTree.Node, never>() };

/**
 * What `classify` makes of the file's object literals and calls, computed once per file (in
 * `table`) for every rule that checks the same things, or asks about one node. Only what was found
 * is kept: a map entry for each of the file's nodes cost more than the classification itself.
 * Without `classify` (the file's text rules the things out) nothing is found.
 */
export function classifiedInFile<V>(
  file: FileAnalysis,
  table: MemoTable<Classified<V>>,
  classify: ((node: TSESTree.ObjectExpression | TSESTree.CallExpression) => V | undefined) | undefined,
): Classified<V> {
  return file.memo(table, file.sourceCode.ast, () => {
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
