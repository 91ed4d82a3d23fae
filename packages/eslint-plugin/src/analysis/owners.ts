import {
  SDK_OWNER_TYPES,
  sdkOwnerOfImport,
  sdkOwnerOfServerChain,
  sdkOwnerThroughProperty,
  type SdkOwnerName,
} from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { findVariable, propertyName, staticKey, unwrap } from './ast.js';
import { memoTable, type FileAnalysis } from './file-analysis.js';
import { sdkTypeName } from './typed.js';
import { DefinitionType } from './definition-type.js';

type Node = TSESTree.Node;

/** An SDK owner (`ServerContext` is the v2 handler context whose `mcpReq` holds the push APIs). */
export type SdkOwner = SdkOwnerName;

/** What a receiver is: an SDK object, provably something else, or not known without running it. */
export type OwnerResolution =
  | { readonly kind: 'sdk'; readonly owner: SdkOwner }
  | { readonly kind: 'other' }
  | { readonly kind: 'unknown' };

const UNKNOWN: OwnerResolution = { kind: 'unknown' };
const OTHER: OwnerResolution = { kind: 'other' };
const MAX_DEPTH = 6;

function sdk(owner: SdkOwner): OwnerResolution {
  return { kind: 'sdk', owner };
}

/** What a name imported from `module` stands for, by the evidence rules core shares with the codemod. */
function ownerOfImport(module: string, imported: string): OwnerResolution {
  const owner = sdkOwnerOfImport(module, imported);
  return owner === undefined || owner === 'other' ? OTHER : sdk(owner);
}

/** Resolves a class or type name (`Server`, `sdk.Server`, a local alias of one) to an owner. */
function ownerOfName(
  file: FileAnalysis,
  name: TSESTree.EntityName | TSESTree.Expression,
  depth: number,
): OwnerResolution {
  if (name.type === AST_NODE_TYPES.Identifier) {
    const origin = file.importOf(name);
    if (origin !== undefined) return ownerOfImport(origin.module, origin.imported);
    const variable = findVariable(file.scopeOf(name), name.name);
    const definition = variable?.defs[0];
    if (definition === undefined) return UNKNOWN;
    if (
      definition.type === DefinitionType.Type &&
      definition.node.type === AST_NODE_TYPES.TSTypeAliasDeclaration
    ) {
      return depth < MAX_DEPTH ? ownerOfType(file, definition.node.typeAnnotation, depth + 1) : UNKNOWN;
    }
    return definition.type === DefinitionType.ClassName || definition.type === DefinitionType.Type
      ? OTHER
      : UNKNOWN;
  }
  const qualifier =
    name.type === AST_NODE_TYPES.TSQualifiedName
      ? name.left
      : name.type === AST_NODE_TYPES.MemberExpression
        ? name.object
        : undefined;
  const right =
    name.type === AST_NODE_TYPES.TSQualifiedName
      ? name.right.name
      : name.type === AST_NODE_TYPES.MemberExpression
        ? staticKey(name)
        : undefined;
  if (qualifier?.type !== AST_NODE_TYPES.Identifier || right === undefined) return UNKNOWN;
  const origin = file.importOf(qualifier);
  if (origin === undefined) return UNKNOWN;
  return origin.imported === '*' ? ownerOfImport(origin.module, right) : OTHER;
}

function ownerOfType(
  file: FileAnalysis,
  type: TSESTree.TypeNode | undefined,
  depth: number,
): OwnerResolution {
  if (type === undefined) return UNKNOWN;
  if (type.type === AST_NODE_TYPES.TSTypeReference) return ownerOfName(file, type.typeName, depth);
  // A structural type written out in the file describes the user's own object, not the SDK's.
  if (type.type === AST_NODE_TYPES.TSTypeLiteral) return OTHER;
  return UNKNOWN;
}

function ownerOfAnnotation(file: FileAnalysis, node: Node, depth: number): OwnerResolution {
  const annotation = (node as { typeAnnotation?: TSESTree.TSTypeAnnotation }).typeAnnotation;
  return ownerOfType(file, annotation?.typeAnnotation, depth);
}

/** `this.server` inside a class: the field's annotation or initializer, or a constructor parameter property. */
function ownerOfThisMember(
  file: FileAnalysis,
  member: TSESTree.MemberExpression,
  key: string,
  depth: number,
): OwnerResolution {
  let node: Node | undefined = member.parent;
  while (node != null && node.type !== AST_NODE_TYPES.ClassBody) node = node.parent;
  if (node == null) return UNKNOWN;
  for (const element of node.body) {
    if (element.type === AST_NODE_TYPES.PropertyDefinition && staticKey(element) === key) {
      const annotated = ownerOfAnnotation(file, element, depth);
      if (annotated.kind !== 'unknown' || element.value === null) return annotated;
      return resolveOwnerSyntactically(file, element.value, depth + 1);
    }
    if (element.type === AST_NODE_TYPES.MethodDefinition && element.kind === 'constructor') {
      for (const param of element.value.params) {
        if (param.type !== AST_NODE_TYPES.TSParameterProperty) continue;
        const inner =
          param.parameter.type === AST_NODE_TYPES.AssignmentPattern ? param.parameter.left : param.parameter;
        if (inner.type === AST_NODE_TYPES.Identifier && inner.name === key)
          return ownerOfAnnotation(file, inner, depth);
      }
    }
  }
  return UNKNOWN;
}

/** The type a local interface or object type alias gives one of its members, when it is written. */
function memberType(
  file: FileAnalysis,
  type: TSESTree.TypeNode | undefined,
  key: string,
): TSESTree.TypeNode | undefined {
  if (type?.type !== AST_NODE_TYPES.TSTypeReference || type.typeName.type !== AST_NODE_TYPES.Identifier)
    return undefined;
  const declaration = findVariable(file.scopeOf(type.typeName), type.typeName.name)?.defs[0]?.node;
  const members =
    declaration?.type === AST_NODE_TYPES.TSInterfaceDeclaration
      ? declaration.body.body
      : declaration?.type === AST_NODE_TYPES.TSTypeAliasDeclaration &&
          declaration.typeAnnotation.type === AST_NODE_TYPES.TSTypeLiteral
        ? declaration.typeAnnotation.members
        : [];
  for (const member of members) {
    if (
      member.type === AST_NODE_TYPES.TSPropertySignature &&
      !member.computed &&
      propertyName(member.key) === key
    )
      return member.typeAnnotation?.typeAnnotation;
  }
  return undefined;
}

/**
 * `const { host } = session` where `session: ChatSession` and the file declares `ChatSession`: the
 * member's declared type says what `host` is.
 */
function ownerOfDestructured(
  file: FileAnalysis,
  pattern: TSESTree.ObjectPattern,
  local: string,
  init: Node,
  depth: number,
): OwnerResolution {
  const source = unwrap(init);
  if (source.type !== AST_NODE_TYPES.Identifier || depth > MAX_DEPTH) return UNKNOWN;
  const property = pattern.properties.find(
    (entry) =>
      entry.type === AST_NODE_TYPES.Property &&
      entry.value.type === AST_NODE_TYPES.Identifier &&
      entry.value.name === local,
  );
  const key = property?.type === AST_NODE_TYPES.Property ? staticKey(property) : undefined;
  const definition = findVariable(file.scopeOf(source), source.name)?.defs[0];
  const binding =
    definition?.type === DefinitionType.Parameter || definition?.type === DefinitionType.Variable
      ? definition.name
      : undefined;
  const annotation = (binding as { typeAnnotation?: TSESTree.TSTypeAnnotation } | undefined)?.typeAnnotation;
  const type = key === undefined ? undefined : memberType(file, annotation?.typeAnnotation, key);
  return ownerOfType(file, type, depth + 1);
}

/**
 * What each variable holds, per depth (a chain cut short at `MAX_DEPTH` may resolve differently):
 * `server.server.createMessage(…)` and `server.server.listRoots()` resolve `server` once. Depths
 * run from 0 to `MAX_DEPTH`; `resolveOwnerSyntactically` stops before a deeper one.
 */
const OWNER_OF_VARIABLE = Array.from({ length: MAX_DEPTH + 1 }, (_, depth) =>
  memoTable<OwnerResolution>(`owner of a variable at depth ${depth}`),
);

function ownerOfIdentifier(
  file: FileAnalysis,
  identifier: TSESTree.Identifier,
  depth: number,
): OwnerResolution {
  const variable = findVariable(file.scopeOf(identifier), identifier.name);
  const definition = variable?.defs[0];
  if (variable === undefined || definition === undefined) return UNKNOWN;
  const table = OWNER_OF_VARIABLE[depth];
  return table === undefined
    ? ownerOfDefinition(file, variable, definition, identifier, depth)
    : file.memo(table, definition.name, () =>
        ownerOfDefinition(file, variable, definition, identifier, depth),
      );
}

function ownerOfDefinition(
  file: FileAnalysis,
  variable: TSESLint.Scope.Variable,
  definition: TSESLint.Scope.Definition,
  identifier: TSESTree.Identifier,
  depth: number,
): OwnerResolution {
  switch (definition.type) {
    case DefinitionType.Variable: {
      const declarator = definition.node;
      if (declarator.id.type === AST_NODE_TYPES.ObjectPattern && declarator.init !== null)
        return ownerOfDestructured(file, declarator.id, identifier.name, declarator.init, depth);
      if (declarator.id.type !== AST_NODE_TYPES.Identifier) return UNKNOWN;
      const annotated = ownerOfAnnotation(file, declarator.id, depth);
      if (annotated.kind !== 'unknown' || declarator.init === null) return annotated;
      const reassigned = variable.references.some((reference) => reference.isWrite() && !reference.init);
      return reassigned ? UNKNOWN : resolveOwnerSyntactically(file, declarator.init, depth + 1);
    }
    case DefinitionType.Parameter:
      return definition.name.type === AST_NODE_TYPES.Identifier
        ? ownerOfAnnotation(file, definition.name, depth)
        : UNKNOWN;
    case DefinitionType.ClassName:
    case DefinitionType.FunctionName:
      return OTHER;
    default:
      return UNKNOWN;
  }
}

/** `(server as any)`: whatever the expression was, the code chose not to say what it is. */
function erasesType(node: Node): boolean {
  for (let current = node; ;) {
    if (current.type === AST_NODE_TYPES.TSAsExpression || current.type === AST_NODE_TYPES.TSTypeAssertion) {
      if (current.typeAnnotation.type === AST_NODE_TYPES.TSAnyKeyword) return true;
      current = current.expression;
    } else if (
      current.type === AST_NODE_TYPES.TSNonNullExpression ||
      current.type === AST_NODE_TYPES.TSSatisfiesExpression
    ) {
      current = current.expression;
    } else return false;
  }
}

/** Resolves a receiver without type information: declarations, imports and `new` expressions. */
export function resolveOwnerSyntactically(file: FileAnalysis, node: Node, depth = 0): OwnerResolution {
  if (depth > MAX_DEPTH || erasesType(node)) return UNKNOWN;
  const current = unwrap(node);
  switch (current.type) {
    case AST_NODE_TYPES.Identifier:
      return ownerOfIdentifier(file, current, depth);
    case AST_NODE_TYPES.NewExpression:
      return current.callee.type === AST_NODE_TYPES.Identifier ||
        current.callee.type === AST_NODE_TYPES.MemberExpression
        ? ownerOfName(file, current.callee, depth)
        : UNKNOWN;
    case AST_NODE_TYPES.MemberExpression: {
      const key = staticKey(current);
      if (key === undefined) return UNKNOWN;
      // Where the property leads when nothing is known of its object.
      const via = sdkOwnerThroughProperty(key, undefined);
      if (current.object.type === AST_NODE_TYPES.ThisExpression) {
        const field = ownerOfThisMember(file, current, key, depth);
        if (field.kind !== 'unknown' || via === undefined) return field;
      }
      // A member of an object proven to be something else (`anthropic.messages`) is that code's too.
      if (via === undefined || via === 'other')
        return resolveOwnerSyntactically(file, current.object, depth + 1).kind === 'other' ? OTHER : UNKNOWN;
      // `agent.server.server`, `ctx.mcpServer.server`: the SDK's idiom whatever `agent` is.
      const object = unwrap(current.object);
      const chained = sdkOwnerOfServerChain(
        object.type === AST_NODE_TYPES.MemberExpression ? staticKey(object) : undefined,
        key,
      );
      if (chained !== undefined) return sdk(chained);
      const objectOwner = resolveOwnerSyntactically(file, current.object, depth + 1);
      const owner = sdkOwnerThroughProperty(
        key,
        objectOwner.kind === 'sdk' ? objectOwner.owner : objectOwner.kind === 'other' ? 'other' : undefined,
      );
      return owner === undefined || owner === 'other' ? OTHER : sdk(owner);
    }
    default:
      return UNKNOWN;
  }
}

/** Resolves a receiver, asking the type checker first when there is one. */
export function resolveOwner(file: FileAnalysis, node: Node): OwnerResolution {
  if (file.typed !== undefined) {
    const origin = sdkTypeName(file.typed, node);
    if (origin?.kind === 'other') return OTHER;
    const owner = origin === undefined ? undefined : SDK_OWNER_TYPES[origin.name];
    if (owner !== undefined) return sdk(owner);
  }
  return resolveOwnerSyntactically(file, node);
}
