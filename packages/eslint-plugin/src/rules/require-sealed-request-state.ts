import {
  DEFAULT_REQUEST_STATE_OPENERS,
  DEFAULT_REQUEST_STATE_SEALERS,
  isPlaintextBufferEncoding,
  PLAINTEXT_DECODERS,
  PLAINTEXT_ENCODERS,
  REQUEST_STATE_VERIFICATION_CALLS,
  UNSEALED_REQUEST_STATE_GUIDANCE,
  UNVERIFIED_REQUEST_STATE_GUIDANCE,
} from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { memberPath, resolveConst, staticKey, staticString, unwrap } from '../analysis/ast.js';
import { isReceivedRequestState } from '../analysis/client-requests.js';
import { fileAnalysis } from '../analysis/file-analysis.js';
import { calleeName } from '../analysis/invoked-member.js';
import { isResultSpec } from '../analysis/mrtr-code.js';
import { createRule } from '../util/create-rule.js';
import { perOptions } from '../util/per-options.js';

type Node = TSESTree.Node;
type Scope = TSESLint.Scope.Scope;

const messages = {
  unsealed: 'requestState is {{how}}, which the client can read and forge. {{guidance}}',
  unverified:
    'requestState is decoded with {{decoder}}() without verification, trusting whatever the client sent. {{guidance}}',
} as const;

type Options = [{ sealers?: string[]; openers?: string[] }];

const REQUEST_STATE = 'requestState';
const VERIFICATION = new RegExp(
  `\\b(?:${REQUEST_STATE_VERIFICATION_CALLS.map((name) => name.replace('.', '\\.')).join('|')})\\b`,
);

/** The called names of the decoders (`parse` of `JSON.parse`): most calls are ruled out by name. */
const DECODER_NAMES: ReadonlySet<string> = new Set(
  PLAINTEXT_DECODERS.map((decoder) => decoder.split('.').at(-1) ?? decoder),
);

function dottedCallee(callee: Node): string | undefined {
  return memberPath(callee)?.join('.');
}

/** Whether a call to a trusted sealer appears anywhere in an expression. */
function containsSealer(node: Node, sealers: ReadonlySet<string>, depth = 0): boolean {
  if (depth > 12) return false;
  const current = unwrap(node);
  switch (current.type) {
    case AST_NODE_TYPES.CallExpression:
      if (sealers.has(calleeName(unwrap(current.callee)) ?? '')) return true;
      return (
        containsSealer(current.callee, sealers, depth + 1) ||
        current.arguments.some((argument) => containsSealer(argument, sealers, depth + 1))
      );
    case AST_NODE_TYPES.MemberExpression:
      return containsSealer(current.object, sealers, depth + 1);
    case AST_NODE_TYPES.BinaryExpression:
      return (
        containsSealer(current.left, sealers, depth + 1) || containsSealer(current.right, sealers, depth + 1)
      );
    case AST_NODE_TYPES.TemplateLiteral:
      return current.expressions.some((expression) => containsSealer(expression, sealers, depth + 1));
    default:
      return false;
  }
}

/** How an expression produces readable state, or undefined when it does not recognisably do so. */
function plaintextProducer(
  scope: Scope,
  node: Node,
  sealers: ReadonlySet<string>,
  depth = 0,
): string | undefined {
  if (depth > 4) return undefined;
  const current = resolveConst(scope, node);
  if (containsSealer(current, sealers)) return undefined;
  switch (current.type) {
    case AST_NODE_TYPES.Literal:
      return typeof current.value === 'string' ? 'a string literal' : undefined;
    case AST_NODE_TYPES.TemplateLiteral:
      return 'a template string';
    case AST_NODE_TYPES.BinaryExpression:
      return current.operator === '+' ? 'built by string concatenation' : undefined;
    case AST_NODE_TYPES.ConditionalExpression:
      return (
        plaintextProducer(scope, current.consequent, sealers, depth + 1) ??
        plaintextProducer(scope, current.alternate, sealers, depth + 1)
      );
    case AST_NODE_TYPES.LogicalExpression:
      return plaintextProducer(scope, current.right, sealers, depth + 1);
    case AST_NODE_TYPES.CallExpression: {
      const encoded = PLAINTEXT_ENCODERS[dottedCallee(current.callee) ?? ''];
      if (encoded !== undefined) return encoded;
      const encoding = staticString(scope, current.arguments[0]);
      if (calleeName(unwrap(current.callee)) === 'toString' && isPlaintextBufferEncoding(encoding)) {
        return `${encoding} of plaintext (an encoding, not protection)`;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** A received requestState: `x.requestState`, `ctx.mcpReq.requestState()`, or a binding named so. */
function isRequestStateReference(scope: Scope, node: Node | undefined): boolean {
  if (node === undefined) return false;
  let current = unwrap(node);
  if (current.type === AST_NODE_TYPES.LogicalExpression) current = unwrap(current.left);
  if (current.type === AST_NODE_TYPES.CallExpression && current.arguments.length === 0)
    current = unwrap(current.callee);
  if (current.type === AST_NODE_TYPES.MemberExpression) return staticKey(current) === REQUEST_STATE;
  if (current.type !== AST_NODE_TYPES.Identifier) return false;
  if (current.name === REQUEST_STATE) return true;
  const resolved = resolveConst(scope, current);
  return resolved !== current && isRequestStateReference(scope, resolved);
}

function enclosingFunctionVerifies(
  node: Node,
  openers: ReadonlySet<string>,
  sourceCode: Readonly<TSESLint.SourceCode>,
): boolean {
  for (let current: Node | undefined = node.parent; current != null; current = current.parent) {
    if (
      current.type === AST_NODE_TYPES.FunctionDeclaration ||
      current.type === AST_NODE_TYPES.FunctionExpression ||
      current.type === AST_NODE_TYPES.ArrowFunctionExpression
    ) {
      const name =
        current.type === AST_NODE_TYPES.FunctionDeclaration
          ? current.id?.name
          : current.parent.type === AST_NODE_TYPES.VariableDeclarator &&
              current.parent.id.type === AST_NODE_TYPES.Identifier
            ? current.parent.id.name
            : undefined;
      if (name !== undefined && openers.has(name)) return true;
      // A function that checks a MAC or decrypts before it decodes is doing the verification itself.
      if (VERIFICATION.test(sourceCode.getText(current))) return true;
      return false;
    }
  }
  return false;
}

const settings = perOptions((options: Options[0]) => ({
  sealers: new Set(options.sealers ?? DEFAULT_REQUEST_STATE_SEALERS),
  openers: new Set(options.openers ?? DEFAULT_REQUEST_STATE_OPENERS),
}));

export default createRule<Options, keyof typeof messages>({
  name: 'require-sealed-request-state',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Require requestState to be sealed (HMAC or AEAD) when sent and verified before it is read, since the client can read and change it',
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
              'Names of functions or methods whose result is a sealed requestState (replaces the defaults).',
          },
          openers: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description:
              'Names of functions that verify a received requestState before decoding it (replaces the defaults).',
          },
        },
        additionalProperties: false,
      },
    ],
    defaultOptions: [
      { sealers: [...DEFAULT_REQUEST_STATE_SEALERS], openers: [...DEFAULT_REQUEST_STATE_OPENERS] },
    ],
  },
  create(context, [options]) {
    const file = fileAnalysis(context);
    if (!file.mayBeMcp) return {};
    if (!file.importsSdk && !file.mentionsMrtr) return {};
    // Both findings are about something named requestState: a property, or a reference to one.
    if (!context.sourceCode.text.includes(REQUEST_STATE)) return {};
    const { sealers, openers } = settings(options);

    return {
      Property(node) {
        if (staticKey(node) !== REQUEST_STATE || node.parent.type !== AST_NODE_TYPES.ObjectExpression) return;
        const scope = file.scopeOf(node);
        if (!isResultSpec(file, node.parent)) return;
        const how = plaintextProducer(scope, node.value, sealers);
        if (how === undefined) return;
        context.report({
          node: node.value,
          messageId: 'unsealed',
          data: { how, guidance: UNSEALED_REQUEST_STATE_GUIDANCE },
        });
      },
      CallExpression(node) {
        if (!DECODER_NAMES.has(calleeName(unwrap(node.callee)) ?? '')) return;
        const decoder = dottedCallee(node.callee);
        if (decoder === undefined || !PLAINTEXT_DECODERS.includes(decoder)) return;
        if (!isRequestStateReference(file.scopeOf(node), node.arguments[0])) return;
        // A client decoding the state it received is no-request-state-inspection's finding.
        if (node.arguments[0] !== undefined && isReceivedRequestState(file, node.arguments[0])) return;
        if (enclosingFunctionVerifies(node, openers, context.sourceCode)) return;
        context.report({
          node,
          messageId: 'unverified',
          data: { decoder, guidance: UNVERIFIED_REQUEST_STATE_GUIDANCE },
        });
      },
    };
  },
});
