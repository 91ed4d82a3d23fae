// Journaled replay as written: which variables hold the runtime's round, which calls ask
// (`round.ask(…)`, or a call handed the round, which may ask), which run a step, and which values
// differ on every call. The rules for journaled handlers share these decisions.
import {
  ADAPTER_REQUEST_HANDLER_METHOD,
  isMrtrEligibleMethod,
  isRuntimeModule,
  PER_CALL_VALUE_CALLS,
  PER_CALL_VALUE_CONSTRUCTORS,
  ROUND_ASK_METHOD,
  ROUND_STEP_METHOD,
  RUNTIME_HANDLER_TYPES,
  RUNTIME_ROUND_TYPES,
} from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { DefinitionType } from './definition-type.js';
import { findVariable, memberPath, staticKey, staticString, unwrap } from './ast.js';
import { memoTable, type FileAnalysis } from './file-analysis.js';
import { handlerRequest, isFunction, type FunctionNode } from './handlers.js';
import { calleeName } from './invoked-member.js';
import { walk } from './walk.js';

type Node = TSESTree.Node;
type Variable = TSESLint.Scope.Variable;

/**
 * Words every file with journaled replay has: the calls themselves, or the runtime's import. A file
 * with neither has no round to find.
 */
export const JOURNAL_IN_TEXT = /\b(?:ask|step)\s*\(|@mcp-mrtr\/runtime/;

/** The file's rounds: the variables that hold one, and the functions that receive one. */
interface Rounds {
  readonly variables: ReadonlySet<Variable>;
  /** Functions with a round parameter (handlers, and helpers a round is handed to), and that parameter. */
  readonly functions: ReadonlyMap<FunctionNode, TSESTree.Identifier>;
  /** Functions whose body asks, directly or through a helper handed the round. */
  readonly asking: ReadonlySet<FunctionNode>;
}

const ROUNDS = memoTable<Rounds>('journaled replay rounds');

const ROUND_TYPES: ReadonlySet<string> = new Set(RUNTIME_ROUND_TYPES);
const HANDLER_TYPES: ReadonlySet<string> = new Set(RUNTIME_HANDLER_TYPES);
const PER_CALL_CALLS: ReadonlySet<string> = new Set(PER_CALL_VALUE_CALLS);

/** The identifier a parameter binds, through a default value (`round = …`). */
function parameterIdentifier(parameter: TSESTree.Parameter | undefined): TSESTree.Identifier | undefined {
  if (parameter?.type === AST_NODE_TYPES.Identifier) return parameter;
  if (
    parameter?.type === AST_NODE_TYPES.AssignmentPattern &&
    parameter.left.type === AST_NODE_TYPES.Identifier
  )
    return parameter.left;
  return undefined;
}

/** Whether a parameter is typed as one of the runtime's round classes (`round: Round<State>`). */
function typedAsRound(file: FileAnalysis, parameter: TSESTree.Identifier): boolean {
  const annotation = parameter.typeAnnotation?.typeAnnotation;
  if (annotation?.type !== AST_NODE_TYPES.TSTypeReference) return false;
  const name = annotation.typeName;
  if (name.type === AST_NODE_TYPES.Identifier) return importedFromRuntime(file, name, ROUND_TYPES);
  // `runtime.Round` through a namespace import.
  if (name.type !== AST_NODE_TYPES.TSQualifiedName || !ROUND_TYPES.has(name.right.name)) return false;
  const namespace = name.left;
  if (namespace.type !== AST_NODE_TYPES.Identifier) return false;
  const origin = file.importOf(namespace);
  return origin !== undefined && origin.imported === '*' && isRuntimeModule(origin.module);
}

/** `mrtr.requestHandler(server, 'tools/call', handler)`: the low-level handler of an adapter. */
function isAdapterRequestHandler(file: FileAnalysis, fn: FunctionNode): boolean {
  const call = fn.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[2] !== fn) return false;
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || staticKey(callee) !== ADAPTER_REQUEST_HANDLER_METHOD)
    return false;
  const method = staticString(file.scopeOf(call), call.arguments[1]);
  return method !== undefined && isMrtrEligibleMethod(method);
}

/** Whether a name is imported from the runtime, or (inside this repository) by relative path. */
function importedFromRuntime(
  file: FileAnalysis,
  name: TSESTree.Identifier,
  wanted: ReadonlySet<string>,
): boolean {
  const origin = file.importOf(name);
  return (
    origin !== undefined &&
    wanted.has(origin.imported) &&
    (isRuntimeModule(origin.module) || origin.module.startsWith('.'))
  );
}

/**
 * Whether a function is typed as one of the runtime's handler types, or not typed where it is
 * declared: `handlerRequest` also counts SDK v2's callback types, whose second parameter is the
 * SDK's context, not a round.
 */
function notTypedAsOtherHandler(file: FileAnalysis, fn: FunctionNode): boolean {
  const declarator = fn.parent;
  if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator) return true;
  const annotation = declarator.id.typeAnnotation?.typeAnnotation;
  if (annotation === undefined) return true;
  return (
    annotation.type === AST_NODE_TYPES.TSTypeReference &&
    annotation.typeName.type === AST_NODE_TYPES.Identifier &&
    importedFromRuntime(file, annotation.typeName, HANDLER_TYPES)
  );
}

/** The round parameter a function has by where it is registered or how it is typed. */
function ownRoundParameter(file: FileAnalysis, fn: FunctionNode): TSESTree.Identifier | undefined {
  const second = parameterIdentifier(fn.params[1]);
  const registered =
    (handlerRequest(file, fn)?.server === 'runtime' && notTypedAsOtherHandler(file, fn)) ||
    isAdapterRequestHandler(file, fn);
  if (second !== undefined && registered) return second;
  for (const parameter of fn.params) {
    const identifier = parameterIdentifier(parameter);
    if (identifier !== undefined && typedAsRound(file, identifier)) return identifier;
  }
  return undefined;
}

/** The function a callee names in this file: a declaration, or a `const` initialised with one. */
function localFunction(file: FileAnalysis, callee: Node): FunctionNode | undefined {
  const current = unwrap(callee);
  if (current.type !== AST_NODE_TYPES.Identifier) return undefined;
  const definition = findVariable(file.scopeOf(current), current.name)?.defs[0];
  if (definition?.type === DefinitionType.FunctionName) return definition.node as FunctionNode;
  if (definition?.type !== DefinitionType.Variable || definition.parent.kind !== 'const') return undefined;
  const init = definition.node.init;
  return init !== null && isFunction(init) ? init : undefined;
}

function variableOf(file: FileAnalysis, identifier: TSESTree.Identifier): Variable | undefined {
  return findVariable(file.scopeOf(identifier), identifier.name);
}

function isRoundIn(file: FileAnalysis, variables: ReadonlySet<Variable>, node: Node): boolean {
  const current = unwrap(node);
  if (current.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = variableOf(file, current);
  return variable !== undefined && variables.has(variable);
}

/** `round.ask(…)` or `round.step(…)` on a known round: which of the two. */
function journalMethodIn(
  file: FileAnalysis,
  variables: ReadonlySet<Variable>,
  call: TSESTree.CallExpression,
): 'ask' | 'step' | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || !isRoundIn(file, variables, callee.object))
    return undefined;
  const name = staticKey(callee);
  return name === ROUND_ASK_METHOD ? 'ask' : name === ROUND_STEP_METHOD ? 'step' : undefined;
}

function computeRounds(file: FileAnalysis): Rounds {
  const functions: FunctionNode[] = [];
  const calls: TSESTree.CallExpression[] = [];
  walk(file.sourceCode, file.sourceCode.ast, (node) => {
    if (isFunction(node)) functions.push(node);
    else if (node.type === AST_NODE_TYPES.CallExpression) calls.push(node);
  });
  const variables = new Set<Variable>();
  const receiving = new Map<FunctionNode, TSESTree.Identifier>();
  const addParameter = (fn: FunctionNode, identifier: TSESTree.Identifier): boolean => {
    // A parameter is declared in its function's scope, which is where its identifier resolves.
    const variable = variableOf(file, identifier);
    if (variable === undefined || variables.has(variable)) return false;
    variables.add(variable);
    if (!receiving.has(fn)) receiving.set(fn, identifier);
    return true;
  };
  for (const fn of functions) {
    const parameter = ownRoundParameter(file, fn);
    if (parameter !== undefined) addParameter(fn, parameter);
  }
  // A helper of this file handed the round (`confirm(round, what)`) receives it at that position;
  // its own helpers in turn, until nothing new is found.
  for (let changed = variables.size > 0; changed;) {
    changed = false;
    for (const call of calls) {
      call.arguments.forEach((argument, index) => {
        if (!isRoundIn(file, variables, argument)) return;
        const helper = localFunction(file, call.callee);
        const parameter = helper && parameterIdentifier(helper.params[index]);
        if (helper !== undefined && parameter !== undefined && addParameter(helper, parameter))
          changed = true;
      });
    }
  }
  const asking = new Set<FunctionNode>();
  if (variables.size > 0) {
    for (const call of calls) {
      const method = journalMethodIn(file, variables, call);
      const asks =
        method === 'ask' ||
        (method === undefined && call.arguments.some((argument) => isRoundIn(file, variables, argument)));
      if (!asks) continue;
      for (let parent: Node | undefined = call.parent; parent != null; parent = parent.parent) {
        if (isFunction(parent)) asking.add(parent);
      }
    }
  }
  return { variables, functions: receiving, asking };
}

function rounds(file: FileAnalysis): Rounds {
  return file.memo(ROUNDS, file.sourceCode.ast, () => computeRounds(file));
}

/**
 * The functions that receive the runtime's round (journaled handlers, and helpers handed their
 * round), each with its round parameter.
 */
export function journaledFunctions(file: FileAnalysis): ReadonlyMap<FunctionNode, TSESTree.Identifier> {
  return rounds(file).functions;
}

/** Whether an expression is a variable that holds the runtime's round. */
export function isRound(file: FileAnalysis, node: Node): boolean {
  return isRoundIn(file, rounds(file).variables, node);
}

/** `round.ask(…)` or `round.step(…)`: which of the two a call is, if either. */
export function journalMethod(file: FileAnalysis, call: TSESTree.CallExpression): 'ask' | 'step' | undefined {
  return journalMethodIn(file, rounds(file).variables, call);
}

/**
 * Whether an expression is the round's own request context or something in it: `round.extra`,
 * `round.ctx.mcpReq`, `extra` after `const { extra } = round`. What goes through it (a progress
 * notification) belongs to the request of this round, so it happens once per round by design.
 */
export function isRoundContext(file: FileAnalysis, node: Node): boolean {
  let current = unwrap(node);
  while (current.type === AST_NODE_TYPES.MemberExpression) current = unwrap(current.object);
  if (current.type !== AST_NODE_TYPES.Identifier) return false;
  if (isRound(file, current)) return true;
  const declarator = findVariable(file.scopeOf(current), current.name)?.defs[0]?.node;
  if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.init === null) return false;
  let init = unwrap(declarator.init);
  while (init.type === AST_NODE_TYPES.MemberExpression) init = unwrap(init.object);
  return isRound(file, init);
}

/**
 * Whether a call may ask a question: `round.ask(…)`; a call handed the round (`confirm(round, …)`),
 * presumed to ask since a helper elsewhere may; or a call of a function of this file that asks
 * (`const askName = () => round.ask(…)`).
 */
export function mayAsk(file: FileAnalysis, call: TSESTree.CallExpression): boolean {
  const method = journalMethod(file, call);
  if (method !== undefined) return method === 'ask';
  if (call.arguments.some((argument) => isRound(file, argument))) return true;
  const local = localFunction(file, call.callee);
  return local !== undefined && rounds(file).asking.has(local);
}

/** The function a `round.step(key, fn)` call runs once, if `fn` is one written there. */
export function steppedFunction(file: FileAnalysis, node: Node): FunctionNode | undefined {
  if (node.type !== AST_NODE_TYPES.CallExpression || journalMethod(file, node) !== 'step') return undefined;
  const fn = node.arguments[1];
  return fn !== undefined && isFunction(fn) ? fn : undefined;
}

/**
 * A value that differs on every call, by core's catalog: `Date.now()`, `Math.random()`,
 * `crypto.randomUUID()` or an imported `randomUUID()`, `performance.now()`, `new Date()` without
 * arguments. Gives the expression as written, for messages.
 */
export function perCallValue(node: TSESTree.CallExpression | TSESTree.NewExpression): string | undefined {
  const callee = unwrap(node.callee);
  const name = calleeName(callee);
  if (node.type === AST_NODE_TYPES.NewExpression) {
    return name !== undefined && PER_CALL_VALUE_CONSTRUCTORS.includes(name) && node.arguments.length === 0
      ? `new ${name}()`
      : undefined;
  }
  const dotted = memberPath(callee)?.join('.');
  if (dotted !== undefined && PER_CALL_CALLS.has(dotted)) return `${dotted}()`;
  return name !== undefined && PER_CALL_CALLS.has(name) ? `${dotted ?? name}()` : undefined;
}
