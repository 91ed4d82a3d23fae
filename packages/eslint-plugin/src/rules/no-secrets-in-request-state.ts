import {
  classifySensitiveName,
  DEFAULT_REQUEST_STATE_SEALERS,
  ROUND_STATE_PROPERTY,
  type SensitiveKind,
  type SensitiveNameOptions,
} from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESTree } from '@typescript-eslint/utils';
import {
  memberPath,
  objectProperty,
  resolveConst,
  staticKey,
  staticString,
  unwrap,
} from '../analysis/ast.js';
import { fileAnalysis } from '../analysis/file-analysis.js';
import { calleeName } from '../analysis/invoked-member.js';
import { inputRequiredResult } from '../analysis/mrtr-code.js';
import { callOfAny } from '../analysis/text-hints.js';
import { createRule } from '../util/create-rule.js';
import { perOptions } from '../util/per-options.js';

type Node = TSESTree.Node;

const messages = {
  secretInState:
    '"{{name}}" names {{secret}} and goes into requestState. Secrets never travel in requestState, not even encrypted: keep them on the server and carry a reference.',
} as const;

type Options = [{ sealers?: string[]; extraTerms?: string[]; allow?: string[] }];

const SECRET_WORDS: Readonly<Record<SensitiveKind, string>> = {
  password: 'a password',
  'api-key': 'an API key',
  token: 'a token',
  secret: 'a secret',
  'private-key': 'a private key',
  payment: 'payment data',
  'government-id': 'a government ID',
  'one-time-code': 'a one-time code',
};

const settings = perOptions((options: Options[0]) => {
  const sealers: ReadonlySet<string> = new Set(options.sealers ?? DEFAULT_REQUEST_STATE_SEALERS);
  const classifierOptions: SensitiveNameOptions = {
    extraTerms: options.extraTerms ?? [],
    allow: options.allow ?? [],
  };
  // The default sealers are in MCP_VOCABULARY_IN_TEXT; configured ones need their own scan.
  const defaultSealersOnly = [...sealers].every((sealer) => DEFAULT_REQUEST_STATE_SEALERS.includes(sealer));
  return { sealers, sealerCall: callOfAny(sealers), defaultSealersOnly, classifierOptions };
});

export default createRule<Options, keyof typeof messages>({
  name: 'no-secrets-in-request-state',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow secret-named properties (passwords, API keys, tokens) in values sealed or stored into requestState',
      recommended: 'recommended',
    },
    messages,
    schema: [
      {
        type: 'object',
        properties: {
          sealers: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description:
              'Names of functions or methods that seal a value into requestState; their first argument is checked (replaces the defaults).',
          },
          extraTerms: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description: 'More phrases that name a secret, e.g. "license key".',
          },
          allow: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description: 'Property names (compared by word parts) never to report, e.g. "token budget".',
          },
        },
        additionalProperties: false,
      },
    ],
    defaultOptions: [{ sealers: [...DEFAULT_REQUEST_STATE_SEALERS], extraTerms: [], allow: [] }],
  },
  create(context, [options]) {
    const file = fileAnalysis(context);
    const { sealers, sealerCall, defaultSealersOnly, classifierOptions } = settings(options);
    if (!file.mayBeMcp && defaultSealersOnly) return {};
    // A state is only sent from code that builds input_required results or seals.
    if (!file.mentionsMrtr && (sealers.size === 0 || !file.mentions(sealerCall))) return {};
    const checked = new Set<Node>();

    /** Reports secret-named properties of the object literals a value is built from. */
    function checkValue(node: Node, depth = 0): void {
      if (depth > 6) return;
      const scope = file.scopeOf(node);
      const current = resolveConst(scope, node);
      if (checked.has(current)) return;
      checked.add(current);
      switch (current.type) {
        case AST_NODE_TYPES.ObjectExpression:
          for (const property of current.properties) {
            if (property.type === AST_NODE_TYPES.SpreadElement) {
              checkValue(property.argument, depth + 1);
              continue;
            }
            const name = property.computed ? staticString(scope, property.key) : staticKey(property);
            const match = name === undefined ? undefined : classifySensitiveName(name, classifierOptions);
            if (name !== undefined && match !== undefined) {
              context.report({
                node: property.key,
                messageId: 'secretInState',
                data: { name, secret: SECRET_WORDS[match.kind] },
              });
            }
            checkValue(property.value, depth + 1);
          }
          return;
        case AST_NODE_TYPES.ArrayExpression:
          for (const element of current.elements) if (element !== null) checkValue(element, depth + 1);
          return;
        case AST_NODE_TYPES.ConditionalExpression:
          checkValue(current.consequent, depth + 1);
          checkValue(current.alternate, depth + 1);
          return;
        case AST_NODE_TYPES.LogicalExpression:
          checkValue(current.left, depth + 1);
          checkValue(current.right, depth + 1);
          return;
        case AST_NODE_TYPES.CallExpression: {
          // `seal(…)`, `codec.mint(…)`, `JSON.stringify(…)`: what they are given; for
          // `Buffer.from(…).toString('base64')`, also what the method is called on.
          const [first] = current.arguments;
          if (first !== undefined && first.type !== AST_NODE_TYPES.SpreadElement)
            checkValue(first, depth + 1);
          const callee = unwrap(current.callee);
          if (callee.type === AST_NODE_TYPES.MemberExpression && staticKey(callee) === 'toString')
            checkValue(callee.object, depth + 1);
          return;
        }
        default:
          return;
      }
    }

    return {
      Property(node) {
        if (node.parent.type !== AST_NODE_TYPES.ObjectExpression) return;
        const key = staticKey(node);
        if (key === 'requestState') {
          // Only the state a result sends, not a client echoing the state it received.
          if (inputRequiredResult(file, node.parent) !== undefined || isResultSpec(node.parent))
            checkValue(node.value);
        } else if (key === ROUND_STATE_PROPERTY) {
          const owner = node.parent.parent;
          if (owner.type !== AST_NODE_TYPES.CallExpression) return;
          if (inputRequiredResult(file, owner)?.kind === 'round') checkValue(node.value);
        }
      },
      CallExpression(node) {
        const name = calleeName(unwrap(node.callee));
        const [first] = node.arguments;
        if (name === undefined || !sealers.has(name) || first === undefined) return;
        // `Object.seal(…)` freezes an object's shape; it has nothing to do with requestState.
        if (
          first.type === AST_NODE_TYPES.SpreadElement ||
          memberPath(node.callee)?.join('.') === 'Object.seal'
        )
          return;
        checkValue(first);
      },
    };

    /** Whether an object is the spec of SDK v2's `inputRequired({ …, requestState })` or a result being built. */
    function isResultSpec(object: TSESTree.ObjectExpression): boolean {
      const parent = object.parent;
      if (parent.type === AST_NODE_TYPES.CallExpression && inputRequiredResult(file, parent)?.kind === 'sdk')
        return true;
      // A literal without resultType that still carries inputRequests is a result being built.
      return objectProperty(file.scopeOf(object), object, 'inputRequests') !== undefined;
    }
  },
});
