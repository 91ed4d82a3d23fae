// Which request a piece of server code answers: the handler it sits in (registered on an SDK
// server, defined for the runtime, typed as a handler, a value in a method-keyed map) or the branch
// of a hand-written dispatch on the request's method.
import {
  COMPLETABLE_FUNCTION,
  COMPLETION_METHOD,
  HANDLER_REGISTRATIONS,
  HANDLER_TYPES,
  RESOURCE_TEMPLATE_CALLBACKS,
  RESOURCE_TEMPLATE_CLASS,
  RUNTIME_HANDLER_DEFINITIONS,
  SERVER_REQUEST_METHODS,
  SERVER_REQUEST_SCHEMA_METHODS,
} from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { findVariable, resolveConst, staticKey, staticString, unwrap } from './ast.js';
import { memoTable, type FileAnalysis } from './file-analysis.js';
import { calleeName } from './invoked-member.js';
import { resolveOwner } from './owners.js';
import { sdkName } from './sdk-references.js';
import { DefinitionType } from './definition-type.js';

type Node = TSESTree.Node;

export type FunctionNode =
  TSESTree.ArrowFunctionExpression | TSESTree.FunctionExpression | TSESTree.FunctionDeclaration;

export function isFunction(node: Node): node is FunctionNode {
  return (
    node.type === AST_NODE_TYPES.ArrowFunctionExpression ||
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.FunctionDeclaration
  );
}

export function enclosingFunction(node: Node): FunctionNode | undefined {
  for (let current = node.parent; current != null; current = current.parent) {
    if (isFunction(current)) return current;
  }
  return undefined;
}

/**
 * Who serves a handler: an SDK server (`sdk-v1`, `sdk-v2`, or `sdk` when the file imports both or
 * the generation is unclear), the runtime (its adapters and definitions, or a runtime handler type),
 * or a hand-written dispatch on the method.
 */
export type Server = 'sdk-v1' | 'sdk-v2' | 'sdk' | 'runtime' | 'dispatch';

export interface HandledRequest {
  readonly method: string;
  readonly server: Server;
  /** The handler function; undefined for a branch of a dispatch. */
  readonly handler: FunctionNode | undefined;
}

const GENERATION = memoTable<Server>('SDK generation');

/** Which SDK generation a file's server code is written against, from its imports. */
function sdkGeneration(file: FileAnalysis): Server {
  return file.memo(GENERATION, file.ast, () => {
    let v1 = false;
    let v2 = false;
    for (const statement of file.ast.body) {
      if (statement.type !== AST_NODE_TYPES.ImportDeclaration) continue;
      const source = statement.source.value;
      if (source.startsWith('@modelcontextprotocol/sdk/')) v1 = true;
      if (source === '@modelcontextprotocol/server' || source.startsWith('@modelcontextprotocol/server/'))
        v2 = true;
    }
    return v1 && !v2 ? 'sdk-v1' : v2 && !v1 ? 'sdk-v2' : 'sdk';
  });
}

/** The method a `setRequestHandler` target names: a v1 schema, a v2 method string, or `z.object({ method: z.literal(…) })`. */
function methodOfTarget(file: FileAnalysis, target: Node): string | undefined {
  const schema = sdkName(file, target);
  if (schema !== undefined) return SERVER_REQUEST_SCHEMA_METHODS[schema];
  const scope = file.scopeOf(target);
  const method = staticString(scope, target);
  if (method !== undefined) return method;
  // A custom request schema: the literal its `method` field is declared with.
  let current = resolveConst(scope, target);
  while (
    current.type === AST_NODE_TYPES.CallExpression &&
    current.callee.type === AST_NODE_TYPES.MemberExpression
  ) {
    if (staticKey(current.callee) === 'object') {
      const shape = current.arguments[0] && resolveConst(scope, current.arguments[0]);
      if (shape?.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
      for (const property of shape.properties) {
        if (property.type !== AST_NODE_TYPES.Property || staticKey(property) !== 'method') continue;
        const literal = unwrap(property.value);
        if (
          literal.type === AST_NODE_TYPES.CallExpression &&
          calleeName(unwrap(literal.callee)) === 'literal'
        ) {
          return staticString(scope, literal.arguments[0]);
        }
      }
      return undefined;
    }
    current = unwrap(current.callee.object);
  }
  return undefined;
}

/** Whether an SDK registration's receiver can be an SDK server (not provably something else). */
function mayBeSdkServer(file: FileAnalysis, receiver: Node): boolean {
  return resolveOwner(file, receiver).kind !== 'other' && (file.importsSdk || file.typed !== undefined);
}

/** The request a function (or a reference to it) answers because of where it is passed. */
function handledAt(file: FileAnalysis, node: Node): Omit<HandledRequest, 'handler'> | undefined {
  const parent = node.parent;
  if (parent == null) return undefined;
  if (
    parent.type === AST_NODE_TYPES.CallExpression &&
    parent.arguments.includes(node as TSESTree.Expression)
  ) {
    const callee = unwrap(parent.callee);
    const name = calleeName(callee);
    if (name === undefined) return undefined;
    if (name === COMPLETABLE_FUNCTION && parent.arguments[1] === node) {
      return { method: COMPLETION_METHOD, server: sdkGeneration(file) };
    }
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
    const registered = HANDLER_REGISTRATIONS[name];
    if (registered !== undefined && parent.arguments.at(-1) === node) {
      const isName = (argument: Node | undefined) =>
        argument !== undefined && staticString(file.scopeOf(argument), argument) !== undefined;
      // SDK registrations start with the name; the runtime's adapters take the server, then the name.
      if (resolveOwner(file, callee.object).kind === 'sdk')
        return { method: registered, server: sdkGeneration(file) };
      if (!isName(parent.arguments[0]) && isName(parent.arguments[1]))
        return { method: registered, server: 'runtime' };
      return isName(parent.arguments[0]) && mayBeSdkServer(file, callee.object)
        ? { method: registered, server: sdkGeneration(file) }
        : undefined;
    }
    if (name === 'setRequestHandler' && parent.arguments[1] === node) {
      const target = parent.arguments[0];
      const method = target === undefined ? undefined : methodOfTarget(file, target);
      return method !== undefined && mayBeSdkServer(file, callee.object)
        ? { method, server: sdkGeneration(file) }
        : undefined;
    }
    return undefined;
  }
  if (parent.type !== AST_NODE_TYPES.Property || parent.value !== node) return undefined;
  const key = parent.computed ? staticString(file.scopeOf(parent), parent.key) : staticKey(parent);
  const object = parent.parent;
  if (key === undefined || object.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const holder = object.parent;
  if (key === 'handler' && holder.type === AST_NODE_TYPES.CallExpression) {
    const method = RUNTIME_HANDLER_DEFINITIONS[calleeName(unwrap(holder.callee)) ?? ''];
    if (method !== undefined) return { method, server: 'runtime' };
  }
  if (isResourceTemplateOptions(file, object)) {
    const method = RESOURCE_TEMPLATE_CALLBACKS[key];
    if (method !== undefined && key !== 'complete') return { method, server: sdkGeneration(file) };
  }
  // `complete: { variable: (value) => … }` inside ResourceTemplate options.
  if (
    holder.type === AST_NODE_TYPES.Property &&
    staticKey(holder) === 'complete' &&
    holder.parent.type === AST_NODE_TYPES.ObjectExpression &&
    isResourceTemplateOptions(file, holder.parent)
  ) {
    return { method: COMPLETION_METHOD, server: sdkGeneration(file) };
  }
  // A value in a table of handlers keyed by method: `{ 'tools/list': (req) => … }`.
  return SERVER_REQUEST_METHODS.includes(key) ? { method: key, server: 'dispatch' } : undefined;
}

function isResourceTemplateOptions(file: FileAnalysis, object: TSESTree.ObjectExpression): boolean {
  const holder = object.parent;
  return (
    holder.type === AST_NODE_TYPES.NewExpression &&
    holder.arguments[1] === object &&
    sdkName(file, holder.callee) === RESOURCE_TEMPLATE_CLASS
  );
}

/** The request a handler type annotation names: `const deploy: ToolHandler<…> = …`. */
function handledByType(declarator: TSESTree.VariableDeclarator): string | undefined {
  const annotation = declarator.id.typeAnnotation?.typeAnnotation;
  if (annotation?.type !== AST_NODE_TYPES.TSTypeReference) return undefined;
  const name =
    annotation.typeName.type === AST_NODE_TYPES.Identifier
      ? annotation.typeName.name
      : annotation.typeName.type === AST_NODE_TYPES.TSQualifiedName
        ? annotation.typeName.right.name
        : undefined;
  return name === undefined ? undefined : HANDLER_TYPES[name];
}

const HANDLED = memoTable<HandledRequest | undefined>('handled request');

/** The request a function answers as a handler, if it is one. */
export function handlerRequest(file: FileAnalysis, fn: FunctionNode): HandledRequest | undefined {
  return file.memo(HANDLED, fn, () => computeHandlerRequest(file, fn));
}

function computeHandlerRequest(file: FileAnalysis, fn: FunctionNode): HandledRequest | undefined {
  const direct = handledAt(file, fn);
  if (direct !== undefined) return { ...direct, handler: fn };
  // A named handler: its annotation, or where a reference to it is passed.
  let variable: TSESLint.Scope.Variable | undefined;
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration && fn.id !== null) {
    variable = findVariable(file.scopeOf(fn), fn.id.name);
  } else if (
    fn.parent.type === AST_NODE_TYPES.VariableDeclarator &&
    fn.parent.id.type === AST_NODE_TYPES.Identifier
  ) {
    const typed = handledByType(fn.parent);
    if (typed !== undefined) return { method: typed, server: 'runtime', handler: fn };
    variable = findVariable(file.scopeOf(fn.parent), fn.parent.id.name);
  }
  if (variable === undefined || variable.defs[0]?.type === DefinitionType.Parameter) return undefined;
  for (const reference of variable.references) {
    if (reference.init === true) continue;
    const at = handledAt(file, reference.identifier);
    if (at !== undefined) return { ...at, handler: fn };
  }
  return undefined;
}

function isMethodReference(node: Node): boolean {
  const current = unwrap(node);
  if (current.type === AST_NODE_TYPES.Identifier) return current.name === 'method';
  return current.type === AST_NODE_TYPES.MemberExpression && staticKey(current) === 'method';
}

/** `x.method === 'tools/list'` (either side): the method string. */
function methodComparison(file: FileAnalysis, test: Node): string | undefined {
  const current = unwrap(test);
  if (current.type !== AST_NODE_TYPES.BinaryExpression || !['===', '=='].includes(current.operator)) {
    return undefined;
  }
  const scope = file.scopeOf(current);
  if (isMethodReference(current.left)) return staticString(scope, current.right);
  if (isMethodReference(current.right)) return staticString(scope, current.left);
  return undefined;
}

/**
 * The request the code at `node` answers: the nearest dispatch branch on the method
 * (`switch (req.method)` case, `if (req.method === …)`) or handler function around it.
 */
export function handledRequest(file: FileAnalysis, node: Node): HandledRequest | undefined {
  let child: Node = node;
  for (let current = node.parent; current != null; child = current, current = current.parent) {
    if (current.type === AST_NODE_TYPES.SwitchCase && current.test !== null && child !== current.test) {
      if (isMethodReference(current.parent.discriminant)) {
        const method = staticString(file.scopeOf(current), current.test);
        if (method !== undefined) return { method, server: 'dispatch', handler: undefined };
      }
    } else if (current.type === AST_NODE_TYPES.IfStatement && child === current.consequent) {
      const method = methodComparison(file, current.test);
      if (method !== undefined) return { method, server: 'dispatch', handler: undefined };
    } else if (isFunction(current)) {
      const request = handlerRequest(file, current);
      if (request !== undefined) return request;
    }
  }
  return undefined;
}
