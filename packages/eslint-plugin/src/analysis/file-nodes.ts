import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { memoTable, type FileAnalysis } from './file-analysis.js';
import { walk } from './walk.js';

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

/** The lists as they are filled, and whether the host's traversal has reached `Program:exit`. */
interface Collection extends FileNodes {
  readonly calls: TSESTree.CallExpression[];
  readonly news: TSESTree.NewExpression[];
  readonly objects: TSESTree.ObjectExpression[];
  readonly properties: TSESTree.Property[];
  readonly assignments: TSESTree.AssignmentExpression[];
  readonly objectsAndCalls: (TSESTree.ObjectExpression | TSESTree.CallExpression)[];
  complete: boolean;
}

/** Whether a rule of the file collects its nodes, and what it collected so far. */
interface CollectionSlot {
  collected: Collection | undefined;
}

const COLLECTION = memoTable<CollectionSlot>('file nodes collected in the traversal');
const FILE_NODES = memoTable<FileNodes>('file nodes found by walking the AST');

function emptyCollection(): Collection {
  return {
    calls: [],
    news: [],
    objects: [],
    properties: [],
    assignments: [],
    objectsAndCalls: [],
    complete: false,
  };
}

/**
 * Listeners that add each node they are given to its lists in `nodes`, by node type. The keys are
 * written out: an object literal with computed keys is built by a slow path on every file.
 */
function collectorsInto(nodes: Collection) {
  return {
    CallExpression: (node: TSESTree.CallExpression) => {
      nodes.calls.push(node);
      nodes.objectsAndCalls.push(node);
    },
    NewExpression: (node: TSESTree.NewExpression) => {
      nodes.news.push(node);
    },
    ObjectExpression: (node: TSESTree.ObjectExpression) => {
      nodes.objects.push(node);
      nodes.objectsAndCalls.push(node);
    },
    Property: (node: TSESTree.Property) => {
      if (node.parent.type === AST_NODE_TYPES.ObjectExpression) nodes.properties.push(node);
    },
    AssignmentExpression: (node: TSESTree.AssignmentExpression) => {
      nodes.assignments.push(node);
    },
  };
}

function collectionSlot(file: FileAnalysis): CollectionSlot {
  return file.memo(COLLECTION, file.ast, () => ({ collected: undefined }));
}

/**
 * A rule's listeners when all it does is read `fileNodes` (or the classifications built on it) in
 * `Program:exit`: `exit` then, and in the first such rule of a file, listeners that collect the
 * file's nodes as the host's traversal (ESLint's or oxlint's) reaches them.
 *
 * The traversal reads every node's type anyway. Walking the AST again to sort nodes by type
 * cost more than the shared analyses built on the lists: a property read of `type` that sees every
 * kind of node is slow, and on large files the nodes are no longer in the processor's caches.
 */
export function collectingFileNodes(file: FileAnalysis, exit: () => void): TSESLint.RuleListener {
  const slot = collectionSlot(file);
  if (slot.collected !== undefined) return { 'Program:exit': exit };
  const nodes = emptyCollection();
  slot.collected = nodes;
  const listeners: TSESLint.RuleListener = collectorsInto(nodes);
  listeners['Program:exit'] = () => {
    nodes.complete = true;
    exit();
  };
  return listeners;
}

/**
 * Whether `fileNodes` can be read: a rule collects the file's nodes and the traversal is over, or
 * no rule collects them (then `fileNodes` walks the AST for them).
 */
export function fileNodesReady(file: FileAnalysis): boolean {
  return collectionSlot(file).collected?.complete ?? true;
}

/**
 * The file's calls, `new` expressions, object literals, their properties and assignments, for the
 * analyses several rules share; they run once per file, in `Program:exit`, rather than in a
 * listener of every rule on every such node. When no rule collected them (`collectingFileNodes`),
 * the AST is walked once for them, with the parser's visitor keys: the same nodes in the same
 * order as the host's traversal, through declared APIs only (`SourceCode#traverse()` is an
 * undeclared ESLint internal, and oxlint has none).
 */
export function fileNodes(file: FileAnalysis): FileNodes {
  const collected = collectionSlot(file).collected;
  if (collected !== undefined) {
    if (!collected.complete) {
      throw new Error('fileNodes was read before Program:exit, while its lists are still being collected');
    }
    return collected;
  }
  return file.memo(FILE_NODES, file.ast, () => {
    const nodes = emptyCollection();
    const collectors: Partial<Record<string, (node: never) => void>> = collectorsInto(nodes);
    walk(file.sourceCode, file.ast, (node) => collectors[node.type]?.(node as never));
    return nodes;
  });
}
