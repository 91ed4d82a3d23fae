// What a handler checks about the client's declared capabilities before it asks for input.
import {
  CAPABILITY_CHECK_CALLS,
  CAPABILITY_REFERENCES,
  escapeRegExp,
  type ElicitationMode,
} from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESTree } from '@typescript-eslint/utils';
import { propertyName, staticKey, unwrap } from './ast.js';
import { memoTable, type FileAnalysis } from './file-analysis.js';
import { calleeName } from './invoked-member.js';
import { walk } from './walk.js';

type Node = TSESTree.Node;

export interface CapabilityChecks {
  /** A helper that checks any request against the declared capabilities (`round.supports`, …). */
  readonly generic: boolean;
  /** The elicitation modes the reads cover: `elicitation.form`, `elicitation.url`, bare `elicitation` (form). */
  readonly elicitation: ReadonlySet<ElicitationMode>;
  /** The elicitation reads as written, for messages: `elicitation`, `elicitation.url`. */
  readonly written: ReadonlySet<string>;
  /** Whether the code reads the client's capabilities at all. */
  readonly reads: boolean;
}

const CHECK_CALLS: ReadonlySet<string> = new Set(CAPABILITY_CHECK_CALLS);
const REFERENCES: ReadonlySet<string> = new Set(CAPABILITY_REFERENCES);
const CHECKS = memoTable<CapabilityChecks>('capability checks');

/** `x.elicitation.url`, `x.elicitation?.['form']`, `'url' in x.elicitation`: the mode a read names, if any. */
function elicitationModeRead(elicitation: Node): ElicitationMode | undefined {
  let node: Node = elicitation;
  let parent = node.parent;
  while (
    parent != null &&
    (parent.type === AST_NODE_TYPES.ChainExpression || parent.type === AST_NODE_TYPES.TSNonNullExpression)
  ) {
    node = parent;
    parent = parent.parent;
  }
  if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === node) {
    const key = staticKey(parent);
    if (key === 'url' || key === 'form') return key;
  }
  if (parent?.type === AST_NODE_TYPES.BinaryExpression && parent.operator === 'in' && parent.right === node) {
    const key = propertyName(parent.left);
    if (key === 'url' || key === 'form') return key;
  }
  return undefined;
}

/** The capability checks written anywhere inside `root` (nested functions included). */
export function capabilityChecks(file: FileAnalysis, root: Node): CapabilityChecks {
  return file.memo(CHECKS, root, () => findCapabilityChecks(file, root));
}

/**
 * Every name a check below is made of. A read of `elicitation` is never followed by a slash:
 * `'elicitation/create'`, in every handler that asks for input, is the method.
 */
const CHECK_WORDS = new RegExp(
  `\\b(?:${[...CHECK_CALLS, ...REFERENCES, 'getClientCapabilities'].map(escapeRegExp).join('|')})\\b|\\belicitation\\b(?!/)`,
);

const NO_CHECKS: CapabilityChecks = Object.freeze({
  generic: false,
  elicitation: new Set<ElicitationMode>(),
  written: new Set<string>(),
  reads: false,
});

function findCapabilityChecks(file: FileAnalysis, root: Node): CapabilityChecks {
  // Most handlers check nothing: their text says so faster than a walk of their nodes.
  if (!CHECK_WORDS.test(file.sourceCode.text.slice(root.range[0], root.range[1]))) return NO_CHECKS;
  let generic = false;
  let reads = false;
  const elicitation = new Set<ElicitationMode>();
  const written = new Set<string>();
  const read = (node: Node) => {
    const mode = elicitationModeRead(node);
    // A bare `elicitation: {}` means form only.
    elicitation.add(mode ?? 'form');
    written.add(mode === undefined ? 'elicitation' : `elicitation.${mode}`);
  };
  walk(file.sourceCode, root, (node) => {
    switch (node.type) {
      case AST_NODE_TYPES.CallExpression: {
        const name = calleeName(unwrap(node.callee));
        if (name !== undefined && CHECK_CALLS.has(name)) {
          generic = true;
          reads = true;
        }
        // Capabilities handed to a helper of the project's own: it may check anything.
        if (node.arguments.some((argument) => isCapabilityReference(argument))) {
          generic = true;
          reads = true;
        }
        break;
      }
      case AST_NODE_TYPES.Identifier:
      case AST_NODE_TYPES.Literal:
        if (isCapabilityReference(node)) reads = true;
        // `const { elicitation } = capabilities; if (elicitation?.url) …`
        if (node.type === AST_NODE_TYPES.Identifier && node.name === 'elicitation' && isMemberObject(node)) {
          reads = true;
          read(node);
        }
        break;
      case AST_NODE_TYPES.MemberExpression:
        if (staticKey(node) === 'elicitation') {
          reads = true;
          read(node);
        } else if (staticKey(node) !== undefined && REFERENCES.has(staticKey(node) ?? '')) {
          reads = true;
        }
        break;
      case AST_NODE_TYPES.BinaryExpression:
        if (node.operator === 'in' && propertyName(node.left) === 'elicitation') {
          reads = true;
          elicitation.add('form');
          written.add('elicitation');
        }
        break;
      default:
        break;
    }
  });
  return { generic, elicitation, written, reads };
}

function isMemberObject(node: Node): boolean {
  return node.parent?.type === AST_NODE_TYPES.MemberExpression && node.parent.object === node;
}

/** `round.clientCapabilities`, `envelope[CLIENT_CAPABILITIES_META_KEY]`, the `_meta` key itself. */
function isCapabilityReference(node: Node): boolean {
  const current = unwrap(node);
  if (current.type === AST_NODE_TYPES.Identifier) return REFERENCES.has(current.name);
  if (current.type === AST_NODE_TYPES.Literal)
    return typeof current.value === 'string' && REFERENCES.has(current.value);
  if (current.type === AST_NODE_TYPES.MemberExpression) {
    const key = staticKey(current);
    return (key !== undefined && REFERENCES.has(key)) || isCapabilityReference(current.property);
  }
  if (current.type === AST_NODE_TYPES.CallExpression)
    return calleeName(unwrap(current.callee)) === 'getClientCapabilities';
  return false;
}

/** Whether the checks cover an elicitation in `mode`. */
export function coversElicitation(checks: CapabilityChecks, mode: ElicitationMode): boolean {
  return checks.generic || checks.elicitation.has(mode);
}
