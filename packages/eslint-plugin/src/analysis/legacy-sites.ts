import {
  CAPABILITY_REGISTRATION_METHODS,
  DEPRECATED_INPUT_REQUEST_GUIDANCE,
  HANDLER_REGISTRATION_METHODS,
  INCLUDE_CONTEXT_GUIDANCE,
  INPUT_REQUEST_BUILDER_OBJECT,
  INPUT_REQUEST_BUILDERS,
  isDeprecatedIncludeContext,
  LEGACY_CAPABILITIES,
  LEGACY_ERRORS,
  legacyError,
  legacyHandler,
  legacyMethod,
  legacySchema,
  type GenericSender,
  type DedicatedMember,
  type LegacyCapability,
  type LegacyCategory,
} from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import {
  asObjectLiteral,
  calleeText,
  objectProperty,
  resolveConst,
  staticKey,
  staticProperties,
  staticString,
  unwrap,
} from './ast.js';
import { memoTable, type FileAnalysis } from './file-analysis.js';
import { collectingFileNodes, fileNodes } from './file-nodes.js';
import { CALL_NAMES, calleeName, heldPushMember, invokedMember } from './invoked-member.js';
import { resolveOwner } from './owners.js';
import {
  carriedMethod,
  isSdkBuilderObject,
  methodOfInlineSchema,
  methodOfSchemaArgument,
  sdkName,
} from './sdk-references.js';
import { LEGACY_SITE_IN_TEXT } from './text-hints.js';

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

const SITES = memoTable<readonly LegacySite[]>('legacy sites');
const NONE: readonly LegacySite[] = Object.freeze([]);

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
  const method =
    schema?.method ??
    (file.importsSdk ? staticString(file.scopeOf(target), target) : undefined) ??
    methodOfInlineSchema(file, target);
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
  const scope = file.scopeOf(capabilities);
  for (const { key, property } of staticProperties(scope, capabilities)) {
    // A capability is declared with an object (`logging: {}`); `roots: flags.supportsRoots` or
    // `logging: false` describes capabilities (telemetry, a hand-built reply), it declares none.
    if (unwrap(resolveConst(scope, property.value)).type !== AST_NODE_TYPES.ObjectExpression) continue;
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
    isSdkBuilderObject(file, object) ||
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
  const callee = unwrap(call.callee);
  const name = calleeName(callee);
  if (name === undefined) return NONE;
  // `elicit.call(server, params)`: a push member read as a value, invoked through `.call`/`.apply`,
  // or bound and passed on.
  if (name === 'call' || name === 'apply' || name === 'bind') {
    const held = heldPushMember(file, call);
    // Named by what holds the member (`elicit.call`), not by the casts around it.
    const holder = callee.type === AST_NODE_TYPES.MemberExpression ? unwrap(callee.object) : callee;
    if (held !== undefined)
      return [memberCallSite(file, call, held, `${calleeText(file.sourceCode, holder)}.${name}`)];
  }
  // Most calls name nothing the catalog knows. Another name can still be a catalog member's: with
  // types, by its declaration; without, only a bare alias in an SDK file (`const { elicitInput: ask }
  // = extra`), since `x.other()` is no catalog member whatever `x` is.
  if (
    !CALL_NAMES.has(name) &&
    file.typed === undefined &&
    (callee.type !== AST_NODE_TYPES.Identifier || !file.importsSdk)
  ) {
    return NONE;
  }
  return file.memo(SITES, call, () => {
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
    return [memberCallSite(file, call, member)];
  });
}

/** A call of a catalog member that is not a generic send: `server.elicitInput(…)`. */
function memberCallSite(
  file: FileAnalysis,
  call: TSESTree.CallExpression,
  member: DedicatedMember,
  callee = calleeText(file.sourceCode, call.callee),
): LegacySite {
  return {
    kind: 'call',
    node: call,
    category: member.category,
    data: {
      callee,
      method: member.sends ?? '',
      guidance: member.guidance,
    },
  };
}

/** `new UrlElicitationRequiredError(…)` and capabilities passed to an SDK constructor. */
export function newSites(file: FileAnalysis, expression: TSESTree.NewExpression): readonly LegacySite[] {
  // SDK classes and errors come from an SDK import (or, with types, through local re-exports).
  if (!file.importsSdk && file.typed === undefined) return NONE;
  return file.memo(SITES, expression, () => {
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

/** Options handed to an SDK constructor: `newSites` reports them, with their side known. */
function isSdkConstructorOptions(file: FileAnalysis, object: TSESTree.ObjectExpression): boolean {
  const parent = object.parent;
  return (
    parent.type === AST_NODE_TYPES.NewExpression &&
    parent.arguments.includes(object) &&
    SDK_CONSTRUCTORS.has(sdkName(file, parent.callee) ?? '')
  );
}

const SDK_CONSTRUCTORS: ReadonlySet<string> = new Set(['Server', 'McpServer', 'Client']);

/**
 * Whether capabilities in this object are MCP capabilities: the file imports the SDK or a framework
 * (`McpModule.forRoot({ capabilities })`, `new FastMCP({ … })`), or the object is a server or
 * client info that carries them (`{ name, version, capabilities }`).
 */
function holdsMcpCapabilities(file: FileAnalysis, object: TSESTree.ObjectExpression): boolean {
  if (file.importsSdk || file.importsFramework) return true;
  const scope = file.scopeOf(object);
  return (
    objectProperty(scope, object, 'name') !== undefined &&
    objectProperty(scope, object, 'version') !== undefined
  );
}

/** Properties that are old-style by themselves: capabilities objects, includeContext, inputRequests entries. */
const PROPERTY_KEYS: ReadonlySet<string> = new Set(['capabilities', 'includeContext', 'inputRequests']);

export function propertySites(file: FileAnalysis, property: TSESTree.Property): readonly LegacySite[] {
  const key = staticKey(property);
  if (key === undefined || !PROPERTY_KEYS.has(key)) return NONE;
  return file.memo(SITES, property, () => {
    const scope = file.scopeOf(property);
    switch (key) {
      case 'capabilities': {
        const object = property.parent as TSESTree.ObjectExpression;
        if (!holdsMcpCapabilities(file, object) || isSdkConstructorOptions(file, object)) return [];
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

/** The capabilities an assignment can declare: those the catalog names by one key. */
const ASSIGNED_CAPABILITIES: ReadonlySet<string> = new Set(
  LEGACY_CAPABILITIES.flatMap((capability) => (capability.path.length === 1 ? capability.path : [])),
);

/** `capabilities.logging = {}` and `options.capabilities.roots = …`: declaring a capability imperatively. */
export function assignmentSites(
  file: FileAnalysis,
  assignment: TSESTree.AssignmentExpression,
): readonly LegacySite[] {
  const target = assignment.left;
  if (!file.importsSdk || target.type !== AST_NODE_TYPES.MemberExpression) return NONE;
  const key = staticKey(target);
  if (key === undefined || !ASSIGNED_CAPABILITIES.has(key)) return NONE;
  return file.memo(SITES, assignment, () => {
    const object = unwrap(target.object);
    const container =
      object.type === AST_NODE_TYPES.Identifier
        ? object.name
        : object.type === AST_NODE_TYPES.MemberExpression
          ? staticKey(object)
          : undefined;
    if (container !== 'capabilities') return [];
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

/** With types, a catalog name or SDK class can arrive through the project's own modules. */
const TYPED_HINTS = wordsPattern([
  ...CALL_NAMES,
  ...LEGACY_ERRORS.map((error) => error.name),
  'capabilities',
]);
const RELEVANCE = memoTable<boolean>('may hold legacy sites');

/**
 * Whether a file can hold a site at all, from imports and a text scan; most files of a project
 * cannot, and the catalog rules then install no listeners for them.
 */
function mayHoldSites(file: FileAnalysis): boolean {
  return file.memo(RELEVANCE, file.ast, () => {
    const text = file.sourceCode.text;
    return (
      file.mayBeMcp &&
      (file.importsSdk ||
        file.importsFramework ||
        file.mentionsMrtr ||
        file.mentions(LEGACY_SITE_IN_TEXT) ||
        (file.typed !== undefined && TYPED_HINTS.test(text)))
    );
  });
}

const SITES_BY_CATEGORY =
  memoTable<ReadonlyMap<LegacyCategory, readonly LegacySite[]>>('legacy sites by category');

/**
 * Every old-style site of the file, by category, found in one pass for all five catalog rules. The
 * same node can be reached twice (a `const` options object handed to `new Server`): each category
 * keeps it once.
 */
function sitesByCategory(file: FileAnalysis): ReadonlyMap<LegacyCategory, readonly LegacySite[]> {
  return file.memo(SITES_BY_CATEGORY, file.ast, () => {
    const byCategory = new Map<LegacyCategory, LegacySite[]>();
    const kept = new Map<LegacyCategory, Set<Node>>();
    const keep = (sites: readonly LegacySite[]) => {
      for (const site of sites) {
        let nodes = kept.get(site.category);
        let same = byCategory.get(site.category);
        if (nodes === undefined || same === undefined) {
          nodes = new Set();
          same = [];
          kept.set(site.category, nodes);
          byCategory.set(site.category, same);
        }
        if (nodes.has(site.node)) continue;
        nodes.add(site.node);
        same.push(site);
      }
    };
    const nodes = fileNodes(file);
    for (const call of nodes.calls) keep(callSites(file, call));
    for (const property of nodes.properties) keep(propertySites(file, property));
    // `newSites` and `assignmentSites` find none without these.
    if (file.importsSdk || file.typed !== undefined) {
      for (const expression of nodes.news) keep(newSites(file, expression));
    }
    if (file.importsSdk) for (const assignment of nodes.assignments) keep(assignmentSites(file, assignment));
    return byCategory;
  });
}

/** The listener every catalog rule installs; each reports the sites of its own category. */
export function legacySiteListeners(
  file: FileAnalysis,
  category: LegacyCategory,
  report: (site: LegacySite) => void,
): TSESLint.RuleListener {
  if (!mayHoldSites(file)) return {};
  return collectingFileNodes(file, () => {
    for (const site of sitesByCategory(file).get(category) ?? []) report(site);
  });
}
