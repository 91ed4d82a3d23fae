import {
  INPUT_REQUEST_METHODS,
  MRTR_LOOSE_IN_TEXT,
  PER_CALL_VALUE_CALLS,
  PER_CALL_VALUE_CONSTRUCTORS,
  ROUND_STATE_PROPERTY,
} from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import {
  memberPath,
  objectProperty,
  resolveConst,
  staticKey,
  staticString,
  unwrap,
} from '../analysis/ast.js';
import { fileAnalysis, type FileAnalysis } from '../analysis/file-analysis.js';
import { collectingFileNodes, fileNodes } from '../analysis/file-nodes.js';
import { calleeName } from '../analysis/invoked-member.js';
import {
  INPUT_REQUIRED,
  inputRequestEntries,
  fileInputRequiredResults,
  returnedFrom,
  type InputRequiredResult,
} from '../analysis/mrtr-code.js';
import { walk } from '../analysis/walk.js';
import { createRule } from '../util/create-rule.js';

type Node = TSESTree.Node;

const messages = {
  empty:
    'An input_required result needs inputRequests, requestState, or both; this one has neither, so the client has nothing to answer and nothing to echo.',
  unknownMethod: 'inputRequests["{{key}}"] uses method "{{method}}"; an input request is one of {{methods}}.',
  unstableKey:
    'The key of this input request comes from {{source}}, which differs on every round: the retry answers under the old key and the handler never finds its answer. Use a fixed key per question.',
  misspelledResultType:
    'resultType "{{value}}" is not "input_required", so the client reads this result as complete.',
  misspelledKey: '"{{key}}" is not a field of an input_required result; did you mean "{{expected}}"?',
  fixResultType: 'Change it to "input_required".',
  fixKey: 'Rename it to "{{expected}}".',
} as const;

type MessageId = keyof typeof messages;

const RESULT_KEYS = ['resultType', 'inputRequests', 'requestState'] as const;
const PER_CALL_CALLS: ReadonlySet<string> = new Set(PER_CALL_VALUE_CALLS);

/** Lower case without separators: `Input-Required` and `input_required` both read `inputrequired`. */
function normalise(text: string): string {
  return text.toLowerCase().replace(/[\s_-]/g, '');
}

/** The intended result field a misspelled key stands for, e.g. `inputRequest` → `inputRequests`. */
function intendedKey(key: string): (typeof RESULT_KEYS)[number] | undefined {
  const normal = normalise(key);
  for (const expected of RESULT_KEYS) {
    const target = normalise(expected);
    if (key !== expected && (normal === target || `${normal}s` === target)) return expected;
  }
  return undefined;
}

/** What makes a key expression differ per call: a random or time source, a counter. */
function perCallSource(file: FileAnalysis, key: Node): string | undefined {
  let source: string | undefined;
  const scope = file.scopeOf(key);
  const visit = (root: Node, depth: number) =>
    walk(file.sourceCode, root, (node) => {
      if (source !== undefined) return false;
      switch (node.type) {
        case AST_NODE_TYPES.CallExpression: {
          const callee = unwrap(node.callee);
          const dotted = memberPath(callee)?.join('.');
          const name = calleeName(callee);
          if (dotted !== undefined && PER_CALL_CALLS.has(dotted)) source = `${dotted}()`;
          else if (name !== undefined && PER_CALL_CALLS.has(name)) source = `${name}()`;
          break;
        }
        case AST_NODE_TYPES.NewExpression: {
          const name = calleeName(unwrap(node.callee));
          if (name !== undefined && PER_CALL_VALUE_CONSTRUCTORS.includes(name) && node.arguments.length === 0)
            source = `new ${name}()`;
          break;
        }
        case AST_NODE_TYPES.UpdateExpression:
          source = 'a counter';
          break;
        case AST_NODE_TYPES.Identifier: {
          // `const key = randomUUID()`: look through the binding once or twice.
          const resolved = resolveConst(scope, node);
          if (resolved !== node && depth < 2) visit(resolved, depth + 1);
          break;
        }
        default:
          break;
      }
      return true;
    });
  visit(key, 0);
  return source;
}

export default createRule<[], MessageId>({
  name: 'valid-input-required-result',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Require input_required results to carry inputRequests or requestState, known input methods, stable keys and a correctly spelled resultType',
      recommended: 'recommended',
    },
    hasSuggestions: true,
    messages,
    schema: [],
  },
  create(context) {
    const file = fileAnalysis(context);
    if (!file.mayBeMcp) return {};
    if (!file.mentions(MRTR_LOOSE_IN_TEXT)) return {};

    function checkEntries(inputRequests: TSESTree.Property) {
      for (const entry of inputRequestEntries(file, inputRequests.value)) {
        if (entry.property.computed) {
          const source = perCallSource(file, entry.property.key);
          if (source !== undefined) {
            context.report({ node: entry.property.key, messageId: 'unstableKey', data: { source } });
          }
        }
        const method = entry.request?.method;
        if (method !== undefined && !(INPUT_REQUEST_METHODS as readonly string[]).includes(method)) {
          context.report({
            node: entry.property,
            messageId: 'unknownMethod',
            data: { key: entry.key ?? '…', method, methods: INPUT_REQUEST_METHODS.join(', ') },
          });
        }
      }
    }

    function checkResult(result: InputRequiredResult) {
      const spec = result.spec;
      if (spec === undefined) return;
      const scope = file.scopeOf(spec);
      const inputRequests = objectProperty(scope, spec, 'inputRequests');
      const stateKey = result.kind === 'round' ? ROUND_STATE_PROPERTY : 'requestState';
      const state = objectProperty(scope, spec, stateKey);
      if (inputRequests !== undefined) checkEntries(inputRequests);
      if (result.kind === 'sdk') checkKeys(spec);
      // Spreads and misspelled keys are reported (or not knowable) on their own.
      const opaque = spec.properties.some((property) => property.type === AST_NODE_TYPES.SpreadElement);
      const misspelled = spec.properties.some(
        (property) =>
          property.type === AST_NODE_TYPES.Property && intendedKey(staticKey(property) ?? '') !== undefined,
      );
      if (opaque || misspelled) return;
      // Only `inputRequests: {}` written in place is known to be empty: a variable (shorthand or
      // not) may be filled after it is declared, e.g. one request per missing argument in a loop.
      const requests = inputRequests && unwrap(inputRequests.value);
      const noRequests =
        inputRequests === undefined ||
        (requests?.type === AST_NODE_TYPES.ObjectExpression && requests.properties.length === 0);
      const noState =
        state === undefined ||
        (unwrap(state.value).type === AST_NODE_TYPES.Identifier &&
          (unwrap(state.value) as TSESTree.Identifier).name === 'undefined');
      // A literal that is not returned may be a pattern (`toMatchObject({ resultType: … })`), not a result.
      const sent = result.kind !== 'literal' || returnedFrom(result.node) !== undefined;
      if (noRequests && noState && sent) context.report({ node: result.node, messageId: 'empty' });
    }

    /** `resultType: 'inputRequired'` and keys like `inputRequest` next to it. */
    function checkSpelling(object: TSESTree.ObjectExpression) {
      const scope = file.scopeOf(object);
      const resultType = objectProperty(scope, object, 'resultType');
      const value = resultType && staticString(scope, resultType.value);
      const looksLikeResult =
        value !== undefined && (value === INPUT_REQUIRED || normalise(value) === normalise(INPUT_REQUIRED));
      if (resultType !== undefined && value !== undefined && value !== INPUT_REQUIRED && looksLikeResult) {
        const literal = resultType.value;
        context.report({
          node: literal,
          messageId: 'misspelledResultType',
          data: { value },
          suggest:
            literal.type === AST_NODE_TYPES.Literal
              ? [
                  {
                    messageId: 'fixResultType',
                    fix: (fixer: TSESLint.RuleFixer) => fixer.replaceText(literal, `'${INPUT_REQUIRED}'`),
                  },
                ]
              : [],
        });
      }
      if (looksLikeResult) checkKeys(object);
    }

    /** Keys that are near misses of `inputRequests`, `requestState` or `resultType`. */
    function checkKeys(object: TSESTree.ObjectExpression) {
      for (const property of object.properties) {
        if (property.type !== AST_NODE_TYPES.Property || property.computed) continue;
        const key = staticKey(property);
        const expected = key === undefined ? undefined : intendedKey(key);
        if (key === undefined || expected === undefined) continue;
        const keyNode = property.key;
        context.report({
          node: keyNode,
          messageId: 'misspelledKey',
          data: { key, expected },
          suggest: property.shorthand
            ? []
            : [
                {
                  messageId: 'fixKey',
                  data: { expected },
                  fix: (fixer: TSESLint.RuleFixer) => fixer.replaceText(keyNode, expected),
                },
              ],
        });
      }
    }

    return collectingFileNodes(file, () => {
      for (const object of fileNodes(file).objects) checkSpelling(object);
      for (const result of fileInputRequiredResults(file)) checkResult(result);
    });
  },
});
