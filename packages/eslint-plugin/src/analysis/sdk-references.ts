// What SDK names and legacy methods an expression refers to: imported schema constants and classes,
// request objects (inline, in a const, typed, cast or built with Schema.parse) and their `method`.
import {
  INPUT_REQUEST_BUILDER_OBJECT,
  isMcpFrameworkModule,
  isMcpSdkModule,
  legacyMethod,
  legacyMethodOfType,
  legacySchema,
  type LegacyMethod,
} from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESTree } from '@typescript-eslint/utils';
import { findVariable, objectProperty, staticKey, staticString, unwrap } from './ast.js';
import type { FileAnalysis } from './file-analysis.js';
import { methodOfType, sdkSymbolName } from './typed.js';
import { DefinitionType } from './definition-type.js';

type Node = TSESTree.Node;

/** The name an SDK export is known by at this reference (imports, namespaces, aliases, types). */
export function sdkName(file: FileAnalysis, node: Node): string | undefined {
  const current = unwrap(node);
  if (
    file.typed !== undefined &&
    (current.type === AST_NODE_TYPES.Identifier || current.type === AST_NODE_TYPES.MemberExpression)
  ) {
    const origin = sdkSymbolName(file.typed, current);
    if (origin !== undefined) return origin.kind === 'sdk' ? origin.name : undefined;
  }
  if (current.type === AST_NODE_TYPES.Identifier) {
    const origin = file.importOf(current);
    return origin !== undefined && isMcpSdkModule(origin.module) && origin.imported !== '*'
      ? origin.imported
      : undefined;
  }
  if (current.type === AST_NODE_TYPES.MemberExpression && current.object.type === AST_NODE_TYPES.Identifier) {
    const origin = file.importOf(current.object);
    return origin !== undefined && isMcpSdkModule(origin.module) && origin.imported === '*'
      ? staticKey(current)
      : undefined;
  }
  return undefined;
}

function typeNameOf(annotation: TSESTree.TypeNode | undefined): TSESTree.EntityName | undefined {
  return annotation?.type === AST_NODE_TYPES.TSTypeReference ? annotation.typeName : undefined;
}

function methodOfTypeName(
  file: FileAnalysis,
  name: TSESTree.EntityName | undefined,
): LegacyMethod | undefined {
  if (name === undefined) return undefined;
  if (name.type === AST_NODE_TYPES.Identifier) {
    const origin = file.importOf(name);
    return origin !== undefined && isMcpSdkModule(origin.module)
      ? legacyMethodOfType(origin.imported)
      : undefined;
  }
  return name.type === AST_NODE_TYPES.TSQualifiedName && name.left.type === AST_NODE_TYPES.Identifier
    ? legacyMethodOfType(name.right.name)
    : undefined;
}

/**
 * `buildRequest(…)` of a function in this file that builds the request: its declared return type
 * (`(): CreateMessageRequest`) or the object its only `return` gives.
 */
function methodOfLocalBuilder(
  file: FileAnalysis,
  callee: TSESTree.Identifier,
  depth: number,
): LegacyMethod | undefined {
  const definition = findVariable(file.scopeOf(callee), callee.name)?.defs[0];
  let fn: Node | null | undefined;
  if (definition?.type === DefinitionType.FunctionName) fn = definition.node;
  else if (definition?.type === DefinitionType.Variable) fn = definition.node.init;
  if (
    fn?.type !== AST_NODE_TYPES.FunctionDeclaration &&
    fn?.type !== AST_NODE_TYPES.FunctionExpression &&
    fn?.type !== AST_NODE_TYPES.ArrowFunctionExpression
  )
    return undefined;
  const declared = methodOfTypeName(file, typeNameOf(fn.returnType?.typeAnnotation));
  if (declared !== undefined) return declared;
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return carriedMethod(file, fn.body, depth + 1);
  const returns = fn.body.body.filter(
    (statement): statement is TSESTree.ReturnStatement => statement.type === AST_NODE_TYPES.ReturnStatement,
  );
  const [only] = returns;
  return returns.length === 1 && only?.argument != null
    ? carriedMethod(file, only.argument, depth + 1)
    : undefined;
}

/**
 * The method a request or notification object carries: its `method` property (inline, through a
 * `const`, or spread), its declared or asserted SDK type, a `Schema.parse({…})` call, or its type.
 */
export function carriedMethod(
  file: FileAnalysis,
  node: Node | undefined,
  depth = 0,
): LegacyMethod | undefined {
  if (node === undefined || depth > 4) return undefined;
  if (file.typed !== undefined) {
    const method = methodOfType(file.typed, node);
    if (method !== undefined) return legacyMethod(method);
  }
  if (node.type === AST_NODE_TYPES.TSAsExpression || node.type === AST_NODE_TYPES.TSTypeAssertion) {
    const asserted = methodOfTypeName(file, typeNameOf(node.typeAnnotation));
    if (asserted !== undefined) return asserted;
  }
  const scope = file.scopeOf(node);
  const current = unwrap(node);
  if (current.type === AST_NODE_TYPES.Identifier) {
    const definition = findVariable(scope, current.name)?.defs[0];
    if (
      definition?.type === DefinitionType.Variable &&
      definition.node.id.type === AST_NODE_TYPES.Identifier
    ) {
      const declared = methodOfTypeName(file, typeNameOf(definition.node.id.typeAnnotation?.typeAnnotation));
      if (declared !== undefined) return declared;
      if (definition.node.init !== null) return carriedMethod(file, definition.node.init, depth + 1);
    }
    if (definition?.type === DefinitionType.Parameter && definition.name.type === AST_NODE_TYPES.Identifier) {
      return methodOfTypeName(file, typeNameOf(definition.name.typeAnnotation?.typeAnnotation));
    }
    return undefined;
  }
  if (current.type === AST_NODE_TYPES.ObjectExpression) {
    const method = staticString(scope, objectProperty(scope, current, 'method')?.value);
    return method === undefined ? undefined : legacyMethod(method);
  }
  if (current.type === AST_NODE_TYPES.CallExpression && current.callee.type === AST_NODE_TYPES.Identifier) {
    return methodOfLocalBuilder(file, current.callee, depth);
  }
  if (
    current.type === AST_NODE_TYPES.CallExpression &&
    current.callee.type === AST_NODE_TYPES.MemberExpression &&
    ['parse', 'safeParse'].includes(staticKey(current.callee) ?? '')
  ) {
    const schema = legacySchema(sdkName(file, current.callee.object) ?? '');
    return schema?.method === undefined ? undefined : legacyMethod(schema.method);
  }
  return undefined;
}

/** The method a result schema argument (`ElicitResultSchema`, `ElicitRequestSchema`) belongs to. */
export function methodOfSchemaArgument(file: FileAnalysis, node: Node | undefined): LegacyMethod | undefined {
  if (node === undefined) return undefined;
  const schema = legacySchema(sdkName(file, node) ?? '');
  if (schema?.method === undefined || (schema.role !== 'result' && schema.role !== 'request'))
    return undefined;
  return legacyMethod(schema.method);
}

/** Schema methods that return the same schema with other options: `.passthrough()`, `.strict()`. */
const SCHEMA_MODIFIERS: ReadonlySet<string> = new Set([
  'passthrough',
  'strict',
  'strip',
  'loose',
  'describe',
]);

/**
 * The legacy method a request schema built on the spot matches:
 * `z.object({ method: z.literal('logging/setLevel') }).passthrough()` names its method as a literal.
 */
export function methodOfInlineSchema(file: FileAnalysis, node: Node): string | undefined {
  let current = unwrap(node);
  while (
    current.type === AST_NODE_TYPES.CallExpression &&
    current.callee.type === AST_NODE_TYPES.MemberExpression &&
    SCHEMA_MODIFIERS.has(staticKey(current.callee) ?? '')
  )
    current = unwrap(current.callee.object);
  if (current.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = unwrap(current.callee);
  const name = callee.type === AST_NODE_TYPES.MemberExpression ? staticKey(callee) : undefined;
  const shape = current.arguments[0];
  if (name !== 'object' || shape?.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const scope = file.scopeOf(shape);
  const method = unwrap(objectProperty(scope, shape, 'method')?.value ?? shape);
  if (
    method.type !== AST_NODE_TYPES.CallExpression ||
    method.callee.type !== AST_NODE_TYPES.MemberExpression ||
    staticKey(method.callee) !== 'literal'
  )
    return undefined;
  const literal = staticString(scope, method.arguments[0]);
  return literal !== undefined && legacyMethod(literal) !== undefined ? literal : undefined;
}

/**
 * Whether `node` is the SDK v2 builder object `inputRequired`: imported from the SDK or from a
 * framework that re-exports it (`import { inputRequired } from 'mcp-use'`), or named so in an SDK file.
 */
export function isSdkBuilderObject(file: FileAnalysis, node: Node): boolean {
  const current = unwrap(node);
  if (sdkName(file, current) === INPUT_REQUEST_BUILDER_OBJECT) return true;
  if (current.type === AST_NODE_TYPES.Identifier && file.importsFramework) {
    const origin = file.importOf(current);
    if (origin !== undefined && isMcpFrameworkModule(origin.module))
      return origin.imported === INPUT_REQUEST_BUILDER_OBJECT;
  }
  return (
    current.type === AST_NODE_TYPES.Identifier &&
    current.name === INPUT_REQUEST_BUILDER_OBJECT &&
    file.importsSdk &&
    file.importOf(current) === undefined &&
    findVariable(file.scopeOf(current), current.name) === undefined
  );
}
