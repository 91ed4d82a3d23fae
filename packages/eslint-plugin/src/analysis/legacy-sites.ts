import {
  CAPABILITY_REGISTRATION_METHODS,
  DEPRECATED_INPUT_REQUEST_GUIDANCE,
  HANDLER_REGISTRATION_METHODS,
  INCLUDE_CONTEXT_GUIDANCE,
  INPUT_REQUEST_BUILDER_OBJECT,
  INPUT_REQUEST_BUILDERS,
  isDeprecatedIncludeContext,
  isMcpSdkModule,
  LEGACY_CAPABILITIES,
  LEGACY_ERRORS,
  LEGACY_MEMBERS,
  legacyError,
  legacyHandler,
  legacyMembersNamed,
  legacyMethod,
  legacyMethodOfType,
  legacySchema,
  SDK_OWNER_PROPERTIES,
  SDK_SPECIFIC_MEMBER_NAMES,
  type GenericSender,
  type LegacyCapability,
  type LegacyCategory,
  type LegacyMember,
  type LegacyMethod,
} from '@mcp-mrtr/core';
import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import {
  asObjectLiteral,
  calleeText,
  findVariable,
  objectProperty,
  propertyName,
  resolveConst,
  staticKey,
  staticProperties,
  staticString,
  unwrap,
} from './ast.js';
import type { FileAnalysis } from './file-analysis.js';
import { resolveOwner } from './owners.js';
import { callProvenance, memberOfProvenance, methodOfType, sdkSymbolName } from './typed.js';

const { DefinitionType } = TSESLint.Scope;

type Node = TSESTree.Node;

/** The shapes of old-style code the five catalog rules report; each has its own message. */
export type SiteKind =
  'call' | 'send' | 'handler' | 'capability' | 'includeContext' | 'inputRequest' | 'legacyError';

/** One place that uses an old-style API, with what to say about it. */
export interface LegacySite {
  readonly kind: SiteKind;
  readonly node: Node;
  readonly category: LegacyCategory;
  /** Placeholders for the rule's message. */
  readonly data: Readonly<Record<string, string>>;
  /** A local, behaviour-changing rewrite offered as a suggestion. */
  readonly removal?: TSESTree.Property;
}

const cache = new WeakMap<Node, readonly LegacySite[]>();
const NONE: readonly LegacySite[] = Object.freeze([]);

function cached(node: Node, compute: () => readonly LegacySite[]): readonly LegacySite[] {
  let sites = cache.get(node);
  if (sites === undefined) {
    sites = compute();
    cache.set(node, sites);
  }
  return sites;
}

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
function methodOfSchemaArgument(file: FileAnalysis, node: Node | undefined): LegacyMethod | undefined {
  if (node === undefined) return undefined;
  const schema = legacySchema(sdkName(file, node) ?? '');
  if (schema?.method === undefined || (schema.role !== 'result' && schema.role !== 'request'))
    return undefined;
  return legacyMethod(schema.method);
}

/** Every call name the catalog rules look at: catalog members, handler and capability registrations, builders. */
const CALL_NAMES: ReadonlySet<string> = new Set([
  ...LEGACY_MEMBERS.map((member) => member.name),
  ...HANDLER_REGISTRATION_METHODS,
  ...CAPABILITY_REGISTRATION_METHODS,
  ...Object.keys(INPUT_REQUEST_BUILDERS),
]);

function calleeName(callee: Node): string | undefined {
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
      const value = unwrap(init);
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

/** The catalog member a call invokes, or undefined when it is not (provably or probably) one. */
function invokedMember(file: FileAnalysis, call: TSESTree.CallExpression): LegacyMember | undefined {
  if (file.typed !== undefined) {
    const provenance = callProvenance(file.typed, call);
    if (provenance.kind === 'sdk') return memberOfProvenance(provenance);
    if (provenance.kind === 'other') return undefined;
  }
  const callee = unwrap(call.callee);
  let receiver: Node | undefined;
  let name: string | undefined;
  if (!file.importsSdk && file.typed === undefined && !isOwnerPropertyChain(callee)) return undefined;
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    receiver = callee.object;
    name = staticKey(callee);
  } else if (callee.type === AST_NODE_TYPES.Identifier) {
    if (legacyMembersNamed(callee.name).length === 0 && !file.importsSdk) return undefined;
    const alias = aliasedMember(file, callee);
    receiver = alias?.receiver;
    name = alias?.name;
  }
  if (name === undefined) return undefined;
  const candidates = legacyMembersNamed(name);
  if (candidates.length === 0) return undefined;

  const owner = receiver === undefined ? ({ kind: 'unknown' } as const) : resolveOwner(file, receiver);
  if (owner.kind === 'sdk') return candidates.find((member) => member.owner === owner.owner);
  if (owner.kind === 'other' || !file.importsSdk) return undefined;
  if (SDK_SPECIFIC_MEMBER_NAMES.has(name)) return candidates[0];
  // Common names (`request`, `notification`) count only with a legacy method string; see `sendSite`.
  return candidates.every((member) => member.kind === 'generic') ? candidates[0] : undefined;
}

function sendSite(
  file: FileAnalysis,
  call: TSESTree.CallExpression,
  member: GenericSender,
): LegacySite | undefined {
  const [request, schema] = call.arguments;
  const method =
    carriedMethod(file, request) ??
    (member.carries === 'request' ? methodOfSchemaArgument(file, schema) : undefined);
  if (method === undefined) return undefined;
  return {
    kind: 'send',
    node: call,
    category: method.category,
    data: {
      callee: calleeText(file.sourceCode, call.callee),
      method: method.method,
      guidance: method.guidance,
    },
  };
}

function handlerSite(file: FileAnalysis, call: TSESTree.CallExpression): LegacySite | undefined {
  const [target] = call.arguments;
  if (target === undefined || call.callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const owner = resolveOwner(file, call.callee.object);
  if (owner.kind === 'other') return undefined;
  const schema = legacySchema(sdkName(file, target) ?? '');
  const method = schema?.method ?? (file.importsSdk ? staticString(file.scopeOf(target), target) : undefined);
  if (method === undefined) return undefined;
  const handler = legacyHandler(method);
  if (handler === undefined) return undefined;
  return {
    kind: 'handler',
    node: target,
    category: handler.category,
    data: { callee: calleeText(file.sourceCode, call.callee), method, guidance: handler.guidance },
  };
}

/** Legacy capability fields in a capabilities object literal, for one side or (unknown) either. */
export function capabilitySites(
  file: FileAnalysis,
  capabilities: TSESTree.ObjectExpression,
  side: LegacyCapability['side'] | undefined,
): LegacySite[] {
  const sites: LegacySite[] = [];
  for (const { key, property } of staticProperties(file.scopeOf(capabilities), capabilities)) {
    const entry = LEGACY_CAPABILITIES.find(
      (capability) =>
        capability.path.length === 1 &&
        capability.path[0] === key &&
        (side === undefined || capability.side === side),
    );
    if (entry === undefined) continue;
    sites.push({
      kind: 'capability',
      node: property.key,
      category: entry.category,
      data: { capability: key, side: entry.side, guidance: entry.guidance },
      ...(property.parent === capabilities ? { removal: property } : {}),
    });
  }
  return sites;
}

function sideOfOwner(owner: ReturnType<typeof resolveOwner>): LegacyCapability['side'] | undefined {
  if (owner.kind !== 'sdk') return undefined;
  return owner.owner === 'Client' ? 'client' : 'server';
}

function capabilityRegistrationSites(file: FileAnalysis, call: TSESTree.CallExpression): LegacySite[] {
  if (call.callee.type !== AST_NODE_TYPES.MemberExpression) return [];
  const owner = resolveOwner(file, call.callee.object);
  if (owner.kind === 'other' || (owner.kind === 'unknown' && !file.importsSdk)) return [];
  const capabilities = asObjectLiteral(file.scopeOf(call), call.arguments[0]);
  return capabilities === undefined ? [] : capabilitySites(file, capabilities, sideOfOwner(owner));
}

/** `inputRequired.createMessage(…)` / `inputRequired.listRoots()`: deprecated but valid input requests. */
function builderSite(file: FileAnalysis, call: TSESTree.CallExpression): LegacySite | undefined | null {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const builder = staticKey(callee);
  const object = unwrap(callee.object);
  const isBuilderObject =
    sdkName(file, object) === INPUT_REQUEST_BUILDER_OBJECT ||
    (object.type === AST_NODE_TYPES.Identifier &&
      object.name === INPUT_REQUEST_BUILDER_OBJECT &&
      file.importsSdk);
  if (builder === undefined || !isBuilderObject) return undefined;
  const method = INPUT_REQUEST_BUILDERS[builder];
  if (method === undefined) return undefined;
  // A builder call is never a push send, whatever its name; `null` says "handled, nothing to report".
  return inputRequestSite(call, method) ?? null;
}

export function inputRequestSite(node: Node, method: string): LegacySite | undefined {
  const guidance =
    DEPRECATED_INPUT_REQUEST_GUIDANCE[method as keyof typeof DEPRECATED_INPUT_REQUEST_GUIDANCE];
  const entry = legacyMethod(method);
  if (guidance === undefined || entry === undefined) return undefined;
  return { kind: 'inputRequest', node, category: entry.category, data: { method, guidance } };
}

/** Every old-style use a call expression makes. */
export function callSites(file: FileAnalysis, call: TSESTree.CallExpression): readonly LegacySite[] {
  const name = calleeName(unwrap(call.callee));
  // Most calls name nothing the catalog knows; other names matter only as aliases in SDK files.
  if (name === undefined || (!CALL_NAMES.has(name) && !file.importsSdk)) return NONE;
  return cached(call, () => {
    if ((HANDLER_REGISTRATION_METHODS as readonly string[]).includes(name)) {
      const site = handlerSite(file, call);
      return site === undefined ? [] : [site];
    }
    if ((CAPABILITY_REGISTRATION_METHODS as readonly string[]).includes(name))
      return capabilityRegistrationSites(file, call);
    if (name in INPUT_REQUEST_BUILDERS) {
      const site = builderSite(file, call);
      if (site !== undefined) return site === null ? [] : [site];
    }
    const member = invokedMember(file, call);
    if (member === undefined) return [];
    if (member.kind === 'generic') {
      const site = sendSite(file, call, member);
      return site === undefined ? [] : [site];
    }
    return [
      {
        kind: 'call',
        node: call,
        category: member.category,
        data: {
          callee: calleeText(file.sourceCode, call.callee),
          method: member.sends ?? '',
          guidance: member.guidance,
        },
      },
    ];
  });
}

/** `new UrlElicitationRequiredError(…)` and capabilities passed to an SDK constructor. */
export function newSites(file: FileAnalysis, expression: TSESTree.NewExpression): readonly LegacySite[] {
  // SDK classes and errors come from an SDK import (or, with types, through local re-exports).
  if (!file.importsSdk && file.typed === undefined) return NONE;
  return cached(expression, () => {
    const name = sdkName(file, expression.callee);
    if (name === undefined) return [];
    const error = legacyError(name);
    if (error !== undefined) {
      return [
        {
          kind: 'legacyError',
          node: expression,
          category: error.category,
          data: { name, guidance: error.guidance },
        },
      ];
    }
    const side =
      name === 'Client' ? 'client' : name === 'Server' || name === 'McpServer' ? 'server' : undefined;
    if (side === undefined) return [];
    const scope = file.scopeOf(expression);
    const options = asObjectLiteral(scope, expression.arguments[1]);
    const capabilities =
      options && asObjectLiteral(scope, objectProperty(scope, options, 'capabilities')?.value);
    return capabilities === undefined ? [] : capabilitySites(file, capabilities, side);
  });
}

/** Options handed to a constructor: SDK constructors are `newSites`' job, and others are not ours. */
function isConstructorOptions(object: TSESTree.ObjectExpression): boolean {
  return object.parent.type === AST_NODE_TYPES.NewExpression && object.parent.arguments.includes(object);
}

/** Properties that are old-style by themselves: capabilities objects, includeContext, inputRequests entries. */
const PROPERTY_KEYS: ReadonlySet<string> = new Set(['capabilities', 'includeContext', 'inputRequests']);

export function propertySites(file: FileAnalysis, property: TSESTree.Property): readonly LegacySite[] {
  const key = staticKey(property);
  if (key === undefined || !PROPERTY_KEYS.has(key)) return NONE;
  return cached(property, () => {
    const scope = file.scopeOf(property);
    switch (key) {
      case 'capabilities': {
        // Capabilities handed to an SDK constructor are reported by `newSites`, with their side known.
        if (!file.importsSdk || isConstructorOptions(property.parent as TSESTree.ObjectExpression)) return [];
        const value = unwrap(property.value);
        return value.type === AST_NODE_TYPES.ObjectExpression ? capabilitySites(file, value, undefined) : [];
      }
      case 'includeContext': {
        const value = staticString(scope, property.value);
        if (value === undefined || !isDeprecatedIncludeContext(value)) return [];
        const object = property.parent as TSESTree.ObjectExpression;
        const looksLikeSampling = objectProperty(scope, object, 'messages') !== undefined;
        if (!file.importsSdk && !looksLikeSampling) return [];
        return [
          {
            kind: 'includeContext',
            node: property,
            category: 'sampling',
            data: { value, guidance: INCLUDE_CONTEXT_GUIDANCE },
            removal: property,
          },
        ];
      }
      case 'inputRequests': {
        const entries = asObjectLiteral(scope, property.value);
        if (entries === undefined) return [];
        const sites: LegacySite[] = [];
        for (const { property: entry } of staticProperties(scope, entries)) {
          const value = resolveConst(scope, entry.value);
          if (value.type !== AST_NODE_TYPES.ObjectExpression) continue;
          const method = staticString(scope, objectProperty(scope, value, 'method')?.value);
          const site = method === undefined ? undefined : inputRequestSite(entry, method);
          if (site !== undefined) sites.push(site);
        }
        return sites;
      }
      default:
        return [];
    }
  });
}

/** `capabilities.logging = {}` and `options.capabilities.roots = …`: declaring a capability imperatively. */
export function assignmentSites(
  file: FileAnalysis,
  assignment: TSESTree.AssignmentExpression,
): readonly LegacySite[] {
  const target = assignment.left;
  if (!file.importsSdk || target.type !== AST_NODE_TYPES.MemberExpression) return NONE;
  return cached(assignment, () => {
    const key = staticKey(target);
    const object = unwrap(target.object);
    const container =
      object.type === AST_NODE_TYPES.Identifier
        ? object.name
        : object.type === AST_NODE_TYPES.MemberExpression
          ? staticKey(object)
          : undefined;
    if (key === undefined || container !== 'capabilities') return [];
    const entry = LEGACY_CAPABILITIES.find(
      (capability) => capability.path.length === 1 && capability.path[0] === key,
    );
    if (entry === undefined) return [];
    return [
      {
        kind: 'capability',
        node: target,
        category: entry.category,
        data: { capability: key, side: entry.side, guidance: entry.guidance },
      },
    ];
  });
}

function wordsPattern(words: Iterable<string>): RegExp {
  return new RegExp(`\\b(?:${[...words].join('|')})\\b`);
}

/** What a file without an SDK import must contain for any site to be found in it without types. */
const UNTYPED_HINTS = /\.\s*(?:server|mcpReq)\b|\bincludeContext\b/;
/** With types, a catalog name or SDK class can arrive through the project's own modules. */
const TYPED_HINTS = wordsPattern([
  ...CALL_NAMES,
  ...LEGACY_ERRORS.map((error) => error.name),
  'capabilities',
]);
const relevance = new WeakMap<FileAnalysis, boolean>();

/**
 * Whether a file can hold a site at all, from imports and a text scan; most files of a project
 * cannot, and the catalog rules then install no listeners for them.
 */
function mayHoldSites(file: FileAnalysis): boolean {
  let relevant = relevance.get(file);
  if (relevant === undefined) {
    const text = file.sourceCode.text;
    relevant =
      file.importsSdk ||
      file.mentionsMrtr ||
      UNTYPED_HINTS.test(text) ||
      (file.typed !== undefined && TYPED_HINTS.test(text));
    relevance.set(file, relevant);
  }
  return relevant;
}

/** The listeners every catalog rule installs; each reports the sites of its own category. */
export function legacySiteListeners(
  file: FileAnalysis,
  category: LegacyCategory,
  report: (site: LegacySite) => void,
): TSESLint.RuleListener {
  if (!mayHoldSites(file)) return {};
  // The same property can be reached twice (a `const` options object handed to `new Server`).
  const reported = new WeakSet<Node>();
  const emit = (sites: readonly LegacySite[]) => {
    for (const site of sites) {
      if (site.category !== category || reported.has(site.node)) continue;
      reported.add(site.node);
      report(site);
    }
  };
  return {
    CallExpression: (node) => emit(callSites(file, node)),
    NewExpression: (node) => emit(newSites(file, node)),
    Property: (node) => {
      if (node.parent.type === AST_NODE_TYPES.ObjectExpression) emit(propertySites(file, node));
    },
    AssignmentExpression: (node) => emit(assignmentSites(file, node)),
  };
}
