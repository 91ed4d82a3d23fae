import {
  KEYED_ANSWER_READERS,
  ROUND_ASK_METHOD,
  ROUND_STEP_METHOD,
  URL_ANSWER_READERS,
} from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESTree } from '@typescript-eslint/utils';
import { findVariable, propertyName, staticKey, staticString, unwrap } from '../analysis/ast.js';
import { isRepeatableCall, isWriteCall } from '../analysis/effects.js';
import { fileAnalysis, type FileAnalysis } from '../analysis/file-analysis.js';
import { enclosingFunction, isFunction, type FunctionNode } from '../analysis/handlers.js';
import { calleeName } from '../analysis/invoked-member.js';
import {
  ELICITATION_METHOD,
  elicitationParamsOf,
  inputRequestInfo,
  inputRequiredResult,
  resultRequests,
} from '../analysis/mrtr-code.js';
import { URL_MODE_IN_TEXT } from '../analysis/text-hints.js';
import { walk } from '../analysis/walk.js';
import { createRule } from '../util/create-rule.js';
import { perOptions } from '../util/per-options.js';

type Node = TSESTree.Node;

const messages = {
  acceptIsConsent:
    'An accept of a URL-mode elicitation only means the user agreed to open the URL, yet this code then {{evidence}}. Check your own record of the out-of-band step (the connection, payment or key your page stores) and return input_required again while it is missing.',
} as const;

type Options = [{ allowCalls?: string[] }];

const ACCEPT = 'accept';
/**
 * Words a message uses to say the out-of-band step is done. Not the bare verb "complete", which
 * tells the user to do it ("Complete it in your browser").
 */
const COMPLETION_CLAIM =
  /\b(?:connected|linked|authori[sz]ed|completed|success(?:ful(?:ly)?)?|paid|finished|signed in|logged in|verified|saved|stored)\b/i;
/** Words that say it is not done yet, or only conditionally. */
const NOT_YET = /\b(?:not|no|waiting|pending|once|after|before|when|until|if)\b/i;

/** The keys of URL-mode requests an input_required result in `fn` asks with. */
function urlKeys(file: FileAnalysis, fn: FunctionNode): Set<string> {
  const keys = new Set<string>();
  walk(file.sourceCode, fn.body, (node) => {
    if (node.type !== AST_NODE_TYPES.ObjectExpression && node.type !== AST_NODE_TYPES.CallExpression) return;
    const result = inputRequiredResult(file, node);
    if (result === undefined) return;
    for (const entry of resultRequests(file, result)) {
      if (
        entry.key !== undefined &&
        entry.request?.method === ELICITATION_METHOD &&
        entry.request.mode === 'url'
      )
        keys.add(entry.key);
    }
  });
  return keys;
}

/** Whether an expression reads the answer to a URL-mode elicitation. */
function readsUrlAnswer(file: FileAnalysis, node: Node, keys: () => Set<string>, depth = 0): boolean {
  if (depth > 3) return false;
  const current = unwrap(node);
  switch (current.type) {
    case AST_NODE_TYPES.CallExpression: {
      const name = calleeName(unwrap(current.callee));
      if (name !== undefined && URL_ANSWER_READERS.includes(name)) return true;
      // Journaled replay: `await round.ask(key, elicitUrl(…))`.
      if (name === ROUND_ASK_METHOD && current.arguments[1] !== undefined) {
        const request = inputRequestInfo(file, current.arguments[1]);
        return request?.method === ELICITATION_METHOD && request.mode === 'url';
      }
      if (name !== undefined && KEYED_ANSWER_READERS.includes(name)) {
        const key = staticString(file.scopeOf(current), current.arguments[1]);
        return key !== undefined && keys().has(key);
      }
      // A legacy push: `await server.elicitInput({ mode: 'url', … })`.
      return (
        elicitationParamsOf(file, current)?.mode === 'url' &&
        current.parent.type === AST_NODE_TYPES.AwaitExpression
      );
    }
    case AST_NODE_TYPES.MemberExpression: {
      // `responses.connect`, `params.inputResponses?.['connect']`.
      const key = current.computed
        ? staticString(file.scopeOf(current), current.property)
        : staticKey(current);
      return key !== undefined && keys().has(key);
    }
    case AST_NODE_TYPES.ConditionalExpression:
      return (
        readsUrlAnswer(file, current.consequent, keys, depth + 1) ||
        readsUrlAnswer(file, current.alternate, keys, depth + 1)
      );
    case AST_NODE_TYPES.LogicalExpression:
      return readsUrlAnswer(file, current.right, keys, depth + 1);
    case AST_NODE_TYPES.Identifier: {
      const declarator = findVariable(file.scopeOf(current), current.name)?.defs[0]?.node;
      if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.init === null) return false;
      return (
        declarator.id.type === AST_NODE_TYPES.Identifier &&
        readsUrlAnswer(file, declarator.init, keys, depth + 1)
      );
    }
    default:
      return false;
  }
}

/** The function journaled replay runs once in `round.step(key, fn)`, if `node` is such a call. */
function steppedFunction(node: Node): FunctionNode | undefined {
  if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = unwrap(node.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || staticKey(callee) !== ROUND_STEP_METHOD)
    return undefined;
  const fn = node.arguments[1];
  return fn !== undefined && isFunction(fn) ? fn : undefined;
}

function isSteppedFunction(node: Node): boolean {
  return node.parent != null && steppedFunction(node.parent) === node;
}

/** `answer.action === 'accept'` (or `!==`): the answer expression and whether the test is positive. */
function acceptTest(node: TSESTree.BinaryExpression): { answer: Node; positive: boolean } | undefined {
  if (!['===', '==', '!==', '!='].includes(node.operator)) return undefined;
  const [member, literal] =
    propertyName(node.right) === ACCEPT ? [node.left, node.right] : [node.right, node.left];
  if (propertyName(literal) !== ACCEPT || literal.type === AST_NODE_TYPES.Identifier) return undefined;
  const current = unwrap(member);
  if (current.type !== AST_NODE_TYPES.MemberExpression || staticKey(current) !== 'action') return undefined;
  return { answer: current.object, positive: node.operator.startsWith('=') };
}

function exits(statement: TSESTree.Statement): boolean {
  if (statement.type === AST_NODE_TYPES.ReturnStatement || statement.type === AST_NODE_TYPES.ThrowStatement)
    return true;
  if (statement.type === AST_NODE_TYPES.BlockStatement) {
    const last = statement.body.at(-1);
    return last !== undefined && exits(last);
  }
  if (statement.type === AST_NODE_TYPES.IfStatement)
    return statement.alternate !== null && exits(statement.consequent) && exits(statement.alternate);
  return false;
}

/** The root variable of an answer expression: `answer` in `answer.action`, `view` in `view?.action`. */
function rootName(node: Node): string | undefined {
  let current = unwrap(node);
  while (current.type === AST_NODE_TYPES.MemberExpression) current = unwrap(current.object);
  return current.type === AST_NODE_TYPES.Identifier ? current.name : undefined;
}

/**
 * The test an accept check guards with: the check itself, or an `&&` chain whose other parts only
 * look at the same answer (`view.kind === 'elicit' && view.action === 'accept'`). Anything else in
 * the chain might be the server-side check, so there is nothing to report.
 */
function guardOf(file: FileAnalysis, test: Node, answer: Node): Node | undefined {
  const name = rootName(answer);
  let guard = test;
  while (guard.parent?.type === AST_NODE_TYPES.LogicalExpression && guard.parent.operator === '&&') {
    const other = guard.parent.left === guard ? guard.parent.right : guard.parent.left;
    let onlyAnswer = name !== undefined;
    walk(file.sourceCode, other, (node) => {
      if (node.type === AST_NODE_TYPES.Identifier && node.name !== name && !isPropertyName(node))
        onlyAnswer = false;
      if (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.AwaitExpression)
        onlyAnswer = false;
      return onlyAnswer;
    });
    if (!onlyAnswer) return guard.parent.left === guard ? guard : undefined;
    guard = guard.parent;
  }
  return guard;
}

function isPropertyName(node: TSESTree.Identifier): boolean {
  return (
    node.parent.type === AST_NODE_TYPES.MemberExpression &&
    node.parent.property === node &&
    !node.parent.computed
  );
}

/** The code that runs only when the answer is an accept, or undefined when the test is not a plain guard. */
function acceptPath(test: Node, positive: boolean): Node[] | undefined {
  const parent = test.parent;
  if (parent == null) return undefined;
  if (parent.type === AST_NODE_TYPES.IfStatement && parent.test === test) {
    if (positive) return [parent.consequent];
    if (!exits(parent.consequent)) return undefined;
    const block = parent.parent;
    if (block.type !== AST_NODE_TYPES.BlockStatement && block.type !== AST_NODE_TYPES.Program)
      return undefined;
    const body = block.body as Node[];
    return [
      ...(parent.alternate === null ? [] : [parent.alternate]),
      ...body.slice(body.indexOf(parent) + 1),
    ];
  }
  if (parent.type === AST_NODE_TYPES.ConditionalExpression && parent.test === test) {
    return [positive ? parent.consequent : parent.alternate];
  }
  if (
    parent.type === AST_NODE_TYPES.LogicalExpression &&
    parent.left === test &&
    positive &&
    parent.operator === '&&'
  ) {
    return [parent.right];
  }
  return undefined;
}

const allowedCalls = perOptions(
  (options: Options[0]): ReadonlySet<string> => new Set(options.allowCalls ?? []),
);

export default createRule<Options, keyof typeof messages>({
  name: 'url-accept-is-not-completion',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow treating an accept of a URL-mode elicitation as proof that the out-of-band step finished',
      recommended: 'strict',
    },
    messages,
    schema: [
      {
        type: 'object',
        properties: {
          allowCalls: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description: 'Names of functions or methods that only check or wait, never act on completion.',
          },
        },
        additionalProperties: false,
      },
    ],
    defaultOptions: [{ allowCalls: [] }],
  },
  create(context, [options]) {
    const file = fileAnalysis(context);
    if (!file.mayBeMcp) return {};
    if (!file.mentions(URL_MODE_IN_TEXT)) return {};
    const allowed = allowedCalls(options);
    const keysOf = new Map<FunctionNode, Set<string>>();

    /** What on the accept path acts on completion, unless something there checks server-side state first. */
    function evidence(path: readonly Node[], scopeNode: Node): string | undefined {
      let acted: string | undefined;
      let checks = false;
      for (const root of path) {
        walk(file.sourceCode, root, (node) => {
          switch (node.type) {
            case AST_NODE_TYPES.IfStatement:
            case AST_NODE_TYPES.ConditionalExpression:
            case AST_NODE_TYPES.SwitchStatement:
            case AST_NODE_TYPES.LogicalExpression:
              checks = true;
              break;
            case AST_NODE_TYPES.AwaitExpression: {
              const awaited = unwrap(node.argument);
              const stepped = steppedFunction(awaited);
              if (stepped !== undefined) {
                // `round.step(key, fn)` does what `fn` does: its block is walked below, and an
                // expression body is judged as if it were awaited here.
                const returned =
                  stepped.body.type === AST_NODE_TYPES.BlockStatement ? undefined : unwrap(stepped.body);
                if (
                  returned?.type === AST_NODE_TYPES.CallExpression ||
                  returned?.type === AST_NODE_TYPES.NewExpression
                ) {
                  if (isRepeatableCall(file, returned, allowed)) checks = true;
                  else acted ??= `awaits ${context.sourceCode.getText(returned.callee)}(…)`;
                }
                break;
              }
              const call =
                awaited.type === AST_NODE_TYPES.CallExpression ||
                awaited.type === AST_NODE_TYPES.NewExpression
                  ? awaited
                  : undefined;
              // Waiting on a promise or a lookup is how a server learns the step's outcome.
              if (call === undefined || isRepeatableCall(file, call, allowed)) checks = true;
              else acted ??= `awaits ${context.sourceCode.getText(call.callee)}(…)`;
              break;
            }
            case AST_NODE_TYPES.CallExpression:
              if (isWriteCall(file, node, scopeNode, allowed))
                acted ??= `calls ${context.sourceCode.getText(node.callee)}(…)`;
              break;
            case AST_NODE_TYPES.ObjectExpression:
            case AST_NODE_TYPES.Literal:
            case AST_NODE_TYPES.TemplateElement: {
              if (node.type === AST_NODE_TYPES.ObjectExpression) {
                if (inputRequiredResult(file, node) !== undefined) checks = true;
                break;
              }
              const text = node.type === AST_NODE_TYPES.Literal ? node.value : node.value.cooked;
              if (typeof text === 'string' && COMPLETION_CLAIM.test(text) && !NOT_YET.test(text))
                acted ??= `tells the user "${text.trim()}"`;
              break;
            }
            default:
              break;
          }
          return !isFunction(node) || node === root || isSteppedFunction(node);
        });
      }
      return checks ? undefined : acted;
    }

    return {
      BinaryExpression(node) {
        const test = acceptTest(node);
        if (test === undefined) return;
        const fn = enclosingFunction(node);
        if (fn === undefined) return;
        const keys = () => {
          let found = keysOf.get(fn);
          if (found === undefined) {
            found = urlKeys(file, fn);
            keysOf.set(fn, found);
          }
          return found;
        };
        if (!readsUrlAnswer(file, test.answer, keys)) return;
        const guard = test.positive ? guardOf(file, node, test.answer) : node;
        const path = guard === undefined ? undefined : acceptPath(guard, test.positive);
        if (path === undefined) return;
        const found = evidence(path, fn);
        if (found !== undefined)
          context.report({ node, messageId: 'acceptIsConsent', data: { evidence: found } });
      },
    };
  },
});
