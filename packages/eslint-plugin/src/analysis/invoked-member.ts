// Which catalog member a call invokes: by the checker's signature declaration when there are types,
// otherwise by the receiver's declaration, import or property chain, aliases included.
import {
  CAPABILITY_REGISTRATION_METHODS,
  HANDLER_REGISTRATION_METHODS,
  hasPushCallShape,
  INPUT_REQUEST_BUILDERS,
  LEGACY_MEMBERS,
  legacyMember,
  legacyMembersNamed,
  PUSH_CALL_SHAPES,
  SDK_OWNER_PROPERTIES,
  SDK_SPECIFIC_MEMBER_NAMES,
  type DedicatedMember,
  type LegacyMember,
  type PushCallShape,
} from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESTree } from '@typescript-eslint/utils';
import { asObjectLiteral, findVariable, objectProperty, propertyName, staticKey, unwrap } from './ast.js';
import type { FileAnalysis } from './file-analysis.js';
import { resolveOwner } from './owners.js';
import { carriedMethod } from './sdk-references.js';
import { callProvenance, memberOfProvenance } from './typed.js';
import { DefinitionType } from './definition-type.js';

type Node = TSESTree.Node;

/** Every call name the catalog rules look at: catalog members, handler and capability registrations, builders. */
export const CALL_NAMES: ReadonlySet<string> = new Set([
  ...LEGACY_MEMBERS.map((member) => member.name),
  ...HANDLER_REGISTRATION_METHODS,
  ...CAPABILITY_REGISTRATION_METHODS,
  ...Object.keys(INPUT_REQUEST_BUILDERS),
]);

/** The called name: `x.name(…)` or `name(…)`. */
export function calleeName(callee: Node): string | undefined {
  if (callee.type === AST_NODE_TYPES.MemberExpression) return staticKey(callee);
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name;
  return undefined;
}

/**
 * What a bare `name(...)` call stands for: a member taken off an object (`const { sendRequest } =
 * extra`, `const fn = server.elicitInput`), given as the receiver expression and member name.
 */
function aliasedMember(
  file: FileAnalysis,
  identifier: TSESTree.Identifier,
): { receiver: Node | undefined; name: string } | undefined {
  const definition = findVariable(file.scopeOf(identifier), identifier.name)?.defs[0];
  if (definition === undefined) return undefined;
  if (definition.type === DefinitionType.Variable) {
    const { id, init } = definition.node;
    if (id.type === AST_NODE_TYPES.Identifier && init !== null) {
      const value = unbound(unwrap(init));
      if (value.type === AST_NODE_TYPES.MemberExpression) {
        const name = staticKey(value);
        return name === undefined ? undefined : { receiver: value.object, name };
      }
      return undefined;
    }
    if (id.type === AST_NODE_TYPES.ObjectPattern) return destructured(id, identifier.name, init ?? undefined);
  }
  if (definition.type === DefinitionType.Parameter) {
    let pattern: Node | undefined = definition.name.parent;
    while (pattern != null && pattern.type !== AST_NODE_TYPES.ObjectPattern) {
      if (pattern.type !== AST_NODE_TYPES.Property && pattern.type !== AST_NODE_TYPES.AssignmentPattern)
        return undefined;
      pattern = pattern.parent;
    }
    return pattern == null ? undefined : destructured(pattern, identifier.name, undefined);
  }
  return undefined;
}

/** `server.elicitInput.bind(server)` read as the member it binds (`server.elicitInput`). */
function unbound(value: Node): Node {
  if (value.type !== AST_NODE_TYPES.CallExpression) return value;
  const callee = unwrap(value.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression && staticKey(callee) === 'bind'
    ? unwrap(callee.object)
    : value;
}

function destructured(pattern: TSESTree.ObjectPattern, local: string, init: Node | undefined) {
  for (const property of pattern.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const value =
      property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
    if (value.type === AST_NODE_TYPES.Identifier && value.name === local) {
      const name = propertyName(property.key);
      return name === undefined ? undefined : { receiver: init, name };
    }
  }
  return undefined;
}

/**
 * `x.server.name(…)` or `x.mcpReq.name(…)`: without an SDK import or types, these chains are the
 * only way a receiver can resolve to the SDK, so every other call in such a file is skipped early.
 */
function isOwnerPropertyChain(callee: Node): boolean {
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const object = unwrap(callee.object);
  return object.type === AST_NODE_TYPES.MemberExpression && (staticKey(object) ?? '') in SDK_OWNER_PROPERTIES;
}

/** Whether a parameter's declared type lists the keys of a push call's argument. */
function takesShape(parameter: TSESTree.Parameter | undefined, shape: PushCallShape): boolean {
  const annotation = (parameter as { typeAnnotation?: TSESTree.TSTypeAnnotation } | undefined)?.typeAnnotation
    ?.typeAnnotation;
  if (annotation?.type !== AST_NODE_TYPES.TSTypeLiteral) return false;
  const keys = new Set(
    annotation.members.flatMap((member) =>
      member.type === AST_NODE_TYPES.TSPropertySignature && !member.computed
        ? [propertyName(member.key)]
        : [],
    ),
  );
  return hasPushCallShape(shape, (key) => keys.has(key));
}

/**
 * Whether a type written in this file declares `name` as a method taking the push call's argument
 * (`elicitInput(input: { message: string; requestedSchema: … })`): such a type describes the SDK
 * object a caller passes in, typed structurally, not an object of the project's own.
 */
function describesSdkMethod(
  members: readonly TSESTree.TypeElement[],
  name: string,
  shape: PushCallShape,
): boolean {
  return members.some((member) => {
    if (member.type === AST_NODE_TYPES.TSMethodSignature)
      return !member.computed && propertyName(member.key) === name && takesShape(member.params[0], shape);
    if (member.type !== AST_NODE_TYPES.TSPropertySignature || member.computed) return false;
    const type = member.typeAnnotation?.typeAnnotation;
    return (
      propertyName(member.key) === name &&
      type?.type === AST_NODE_TYPES.TSFunctionType &&
      takesShape(type.params[0], shape)
    );
  });
}

/**
 * Whether a type is written in this file as code of the project's own: a class (its methods are
 * read here), or an interface, alias or literal type unless it describes the SDK's method (see
 * `describesSdkMethod`). An import is not.
 */
function isOwnType(
  file: FileAnalysis,
  type: TSESTree.TypeNode | TSESTree.EntityName | TSESTree.Expression,
  name: string,
  shape: PushCallShape,
): boolean {
  if (type.type === AST_NODE_TYPES.TSTypeLiteral) return !describesSdkMethod(type.members, name, shape);
  const typeName = type.type === AST_NODE_TYPES.TSTypeReference ? type.typeName : type;
  if (typeName.type !== AST_NODE_TYPES.Identifier) return false;
  const definition = findVariable(file.scopeOf(typeName), typeName.name)?.defs[0];
  if (definition?.type === DefinitionType.ClassName) return true;
  if (definition?.type !== DefinitionType.Type) return false;
  const declaration = definition.node;
  if (declaration.type === AST_NODE_TYPES.TSInterfaceDeclaration)
    return !describesSdkMethod(declaration.body.body, name, shape);
  if (declaration.type === AST_NODE_TYPES.TSTypeAliasDeclaration)
    return (
      declaration.typeAnnotation.type !== AST_NODE_TYPES.TSTypeLiteral ||
      !describesSdkMethod(declaration.typeAnnotation.members, name, shape)
    );
  return true;
}

/**
 * Whether a receiver's class or type is written in this file (`new Wizard()`, `form: { … }`): its
 * methods are that code's, not a wrapper around the SDK; see `isOwnType`.
 */
function isDeclaredHere(file: FileAnalysis, receiver: Node, name: string, shape: PushCallShape): boolean {
  const current = unwrap(receiver);
  if (isOwnMethodOfThis(current, name)) return true;
  if (current.type === AST_NODE_TYPES.NewExpression) return isOwnType(file, current.callee, name, shape);
  // A member of such an object (`new Wizard().server`) is that code's too.
  if (current.type === AST_NODE_TYPES.MemberExpression)
    return isDeclaredHere(file, current.object, name, shape);
  if (current.type !== AST_NODE_TYPES.Identifier) return false;
  const definition = findVariable(file.scopeOf(current), current.name)?.defs[0];
  let binding: Node | undefined;
  let init: Node | null | undefined;
  if (definition?.type === DefinitionType.Variable) {
    binding = definition.node.id;
    init = definition.node.init;
  } else if (definition?.type === DefinitionType.Parameter) binding = definition.name;
  if (binding === undefined) return false;
  const annotation = (binding as { typeAnnotation?: TSESTree.TSTypeAnnotation }).typeAnnotation
    ?.typeAnnotation;
  if (
    annotation?.type === AST_NODE_TYPES.TSTypeLiteral ||
    annotation?.type === AST_NODE_TYPES.TSTypeReference
  )
    return isOwnType(file, annotation, name, shape);
  const value = init == null ? undefined : unwrap(init);
  return value?.type === AST_NODE_TYPES.NewExpression && isOwnType(file, value.callee, name, shape);
}

/**
 * `ctx.elicitInput({ message, requestedSchema })`: a call whose name and argument are the SDK's,
 * which is evidence enough whatever the receiver (a project's wrapper, a framework's object).
 */
function memberOfShape(
  file: FileAnalysis,
  call: TSESTree.CallExpression,
  name: string,
): LegacyMember | undefined {
  const shape = PUSH_CALL_SHAPES[name];
  const argument = call.arguments[0];
  if (shape === undefined || argument === undefined) return undefined;
  const callee = unwrap(call.callee);
  if (callee.type === AST_NODE_TYPES.MemberExpression && isDeclaredHere(file, callee.object, name, shape))
    return undefined;
  const scope = file.scopeOf(call);
  const params = asObjectLiteral(scope, argument);
  if (params === undefined) return undefined;
  const has = (key: string) => objectProperty(scope, params, key) !== undefined;
  return hasPushCallShape(shape, has) ? legacyMember(shape.owner, name) : undefined;
}

/** The categories of the requests a server pushes, which `migrate` rewrites. */
const PUSH_CATEGORIES: ReadonlySet<string> = new Set(['elicitation', 'sampling', 'roots']);

/**
 * `this.listRoots()` inside a class that declares `listRoots` itself: the project's own method,
 * whatever its name (a class extending the SDK's would not redeclare what it pushes with).
 */
function isOwnMethodOfThis(receiver: Node, name: string): boolean {
  if (unwrap(receiver).type !== AST_NODE_TYPES.ThisExpression) return false;
  let node: Node | undefined = receiver.parent;
  while (node != null && node.type !== AST_NODE_TYPES.ClassBody) node = node.parent;
  return (
    node != null &&
    node.body.some(
      (element) =>
        (element.type === AST_NODE_TYPES.MethodDefinition ||
          element.type === AST_NODE_TYPES.PropertyDefinition) &&
        !element.computed &&
        propertyName(element.key) === name,
    )
  );
}

/**
 * `sendRequest({ method: 'elicitation/create', … })` on anything: a generic send that carries a
 * request only a server sends to a client is old-style whoever the sender is.
 */
function carriesServerRequest(file: FileAnalysis, call: TSESTree.CallExpression): boolean {
  const request = call.arguments[0];
  if (request === undefined || request.type === AST_NODE_TYPES.SpreadElement) return false;
  return carriedMethod(file, request)?.direction === 'server-to-client';
}

/** The catalog member a call invokes, or undefined when it is not (provably or probably) one. */
export function invokedMember(file: FileAnalysis, call: TSESTree.CallExpression): LegacyMember | undefined {
  const callee = unwrap(call.callee);
  const called = calleeName(callee);
  if (file.typed !== undefined) {
    const provenance = callProvenance(file.typed, call);
    if (provenance.kind === 'sdk') return memberOfProvenance(provenance);
    if (provenance.kind === 'other')
      return called === undefined ? undefined : memberOfShape(file, call, called);
  }
  const shaped = called === undefined ? undefined : memberOfShape(file, call, called);
  if (shaped !== undefined) return shaped;
  let receiver: Node | undefined;
  let name: string | undefined;
  const generic =
    called !== undefined &&
    legacyMembersNamed(called).some((member) => member.kind === 'generic') &&
    carriesServerRequest(file, call);
  if (!file.importsSdk && file.typed === undefined && !isOwnerPropertyChain(callee) && !generic)
    return undefined;
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    receiver = callee.object;
    name = staticKey(callee);
  } else if (callee.type === AST_NODE_TYPES.Identifier) {
    if (legacyMembersNamed(callee.name).length === 0 && !file.importsSdk) return undefined;
    const alias = aliasedMember(file, callee);
    receiver = alias?.receiver;
    // A sender received as a parameter (`sendRequest`) is known by its own name.
    name = alias?.name ?? (generic ? callee.name : undefined);
  }
  if (name === undefined) return undefined;
  const candidates = legacyMembersNamed(name);
  if (candidates.length === 0) return undefined;

  if (receiver !== undefined && isOwnMethodOfThis(receiver, name)) return undefined;
  const owner = receiver === undefined ? ({ kind: 'unknown' } as const) : resolveOwner(file, receiver);
  if (owner.kind === 'sdk') return candidates.find((member) => member.owner === owner.owner);
  // A server-to-client method string outweighs a receiver of the project's own type.
  if (generic) return candidates.find((member) => member.kind === 'generic');
  if (owner.kind === 'other') return undefined;
  if (!file.importsSdk) return undefined;
  if (SDK_SPECIFIC_MEMBER_NAMES.has(name)) return candidates[0];
  // A push request's own name (`createMessage`) on a receiver nothing is known of, in a file that
  // imports the SDK, is presumed the SDK's, as `migrate` presumes it.
  const push = candidates.find(
    (member) => member.kind === 'dedicated' && PUSH_CATEGORIES.has(member.category),
  );
  if (push !== undefined) return push;
  // Common names (`request`, `notification`) count only with a legacy method string; see `sendSite`.
  return candidates.every((member) => member.kind === 'generic') ? candidates[0] : undefined;
}

/** Whether an expression is what a `const name = …` declarator holds, through assertions. */
function isConstInitializer(node: Node): boolean {
  let outer: Node = node;
  while (
    outer.parent?.type === AST_NODE_TYPES.TSAsExpression ||
    outer.parent?.type === AST_NODE_TYPES.TSNonNullExpression ||
    outer.parent?.type === AST_NODE_TYPES.TSSatisfiesExpression
  )
    outer = outer.parent;
  const parent = outer.parent;
  return (
    parent?.type === AST_NODE_TYPES.VariableDeclarator &&
    parent.init === outer &&
    parent.id.type === AST_NODE_TYPES.Identifier
  );
}

/**
 * `elicit.call(server, params)`: a push request's own member read off its receiver as a value
 * (`const elicit = server.elicitInput`, or in place) and invoked through `.call` or `.apply`. The
 * call names no push, but it is one when the member is the SDK's, by the rule `invokedMember`
 * applies to a bare alias.
 */
export function heldPushMember(
  file: FileAnalysis,
  call: TSESTree.CallExpression,
): DedicatedMember | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const invoker = staticKey(callee);
  if (invoker !== 'call' && invoker !== 'apply' && invoker !== 'bind') return undefined;
  // `const ask = server.elicitInput.bind(server)` is an alias whose calls are reported.
  if (invoker === 'bind' && isConstInitializer(call)) return undefined;
  const held = unwrap(callee.object);
  let receiver: Node | undefined;
  let name: string | undefined;
  if (held.type === AST_NODE_TYPES.Identifier) {
    const alias = aliasedMember(file, held);
    receiver = alias?.receiver;
    name = alias?.name;
  } else if (held.type === AST_NODE_TYPES.MemberExpression) {
    receiver = held.object;
    name = staticKey(held);
  }
  const push =
    name === undefined
      ? undefined
      : legacyMembersNamed(name).find(
          (member): member is DedicatedMember =>
            member.kind === 'dedicated' && PUSH_CATEGORIES.has(member.category),
        );
  if (push === undefined || name === undefined) return undefined;
  if (receiver !== undefined && isOwnMethodOfThis(receiver, name)) return undefined;
  const owner = receiver === undefined ? ({ kind: 'unknown' } as const) : resolveOwner(file, receiver);
  if (owner.kind === 'sdk')
    return legacyMembersNamed(name).find(
      (member): member is DedicatedMember => member.kind === 'dedicated' && member.owner === owner.owner,
    );
  if (owner.kind === 'other') return undefined;
  return file.importsSdk ? push : undefined;
}
