import type { LegacyCategory } from './categories.js';
import { legacyMethod } from './legacy-methods.js';

/** Which published SDK a member belongs to. */
export type SdkGeneration = 'v1' | 'v2';

/**
 * The type that owns a member. `ServerContext.mcpReq` is the v2 handler context's `mcpReq` object;
 * `RequestHandlerExtra` is v1's second handler argument.
 */
export type LegacyOwner = 'Server' | 'McpServer' | 'RequestHandlerExtra' | 'ServerContext.mcpReq' | 'Client';

interface MemberBase {
  readonly sdk: SdkGeneration;
  readonly owner: LegacyOwner;
  readonly name: string;
  /** The module that exports the owner type, as users import it. */
  readonly module: string;
}

/** A member that is old-style by itself: every call is a finding of its category. */
export interface DedicatedMember extends MemberBase {
  readonly kind: 'dedicated';
  readonly category: LegacyCategory;
  /** The method string it puts on the wire, when it sends one. */
  readonly sends?: string;
  /** One sentence: what to do instead. */
  readonly guidance: string;
}

/**
 * A generic send (`request`, `sendRequest`, `send`, `notification`, …): old-style only when the
 * method it carries is in the legacy method catalog, which then decides the category.
 */
export interface GenericSender extends MemberBase {
  readonly kind: 'generic';
  readonly carries: 'request' | 'notification';
}

export type LegacyMember = DedicatedMember | GenericSender;

const V1_SERVER = '@modelcontextprotocol/sdk/server/index.js';
const V1_MCP_SERVER = '@modelcontextprotocol/sdk/server/mcp.js';
const V1_PROTOCOL = '@modelcontextprotocol/sdk/shared/protocol.js';
const V1_CLIENT = '@modelcontextprotocol/sdk/client/index.js';
const V2_SERVER = '@modelcontextprotocol/server';
const V2_CLIENT = '@modelcontextprotocol/client';

function dedicated(
  sdk: SdkGeneration,
  owner: LegacyOwner,
  module: string,
  name: string,
  sends: string,
  guidance?: string,
): DedicatedMember {
  const method = legacyMethod(sends);
  if (method === undefined)
    throw new Error(`${owner}.${name} sends ${sends}, which the method catalog lacks`);
  return {
    kind: 'dedicated',
    sdk,
    owner,
    module,
    name,
    sends,
    category: method.category,
    guidance: guidance ?? method.guidance,
  };
}

function generic(
  sdk: SdkGeneration,
  owner: LegacyOwner,
  module: string,
  name: string,
  carries: GenericSender['carries'],
): GenericSender {
  return { kind: 'generic', sdk, owner, module, name, carries };
}

/** The push-style members of `Server`, the same in both SDK generations. */
function serverMembers(sdk: SdkGeneration, module: string): LegacyMember[] {
  return [
    dedicated(sdk, 'Server', module, 'elicitInput', 'elicitation/create'),
    dedicated(sdk, 'Server', module, 'createMessage', 'sampling/createMessage'),
    dedicated(sdk, 'Server', module, 'listRoots', 'roots/list'),
    dedicated(sdk, 'Server', module, 'sendLoggingMessage', 'notifications/message'),
    dedicated(
      sdk,
      'Server',
      module,
      'createElicitationCompletionNotifier',
      'notifications/elicitation/complete',
    ),
    generic(sdk, 'Server', module, 'request', 'request'),
    generic(sdk, 'Server', module, 'notification', 'notification'),
  ];
}

function clientMembers(sdk: SdkGeneration, module: string): LegacyMember[] {
  return [
    dedicated(
      sdk,
      'Client',
      module,
      'setLoggingLevel',
      'logging/setLevel',
      'Stop setting a protocol log level; servers log to stderr or OpenTelemetry.',
    ),
    dedicated(
      sdk,
      'Client',
      module,
      'sendRootsListChanged',
      'notifications/roots/list_changed',
      'Pass paths to servers as tool arguments or configuration; roots are deprecated.',
    ),
  ];
}

export const LEGACY_MEMBERS: readonly LegacyMember[] = [
  ...serverMembers('v1', V1_SERVER),
  dedicated('v1', 'McpServer', V1_MCP_SERVER, 'sendLoggingMessage', 'notifications/message'),
  generic('v1', 'RequestHandlerExtra', V1_PROTOCOL, 'sendRequest', 'request'),
  generic('v1', 'RequestHandlerExtra', V1_PROTOCOL, 'sendNotification', 'notification'),
  ...clientMembers('v1', V1_CLIENT),

  ...serverMembers('v2', V2_SERVER),
  dedicated('v2', 'McpServer', V2_SERVER, 'sendLoggingMessage', 'notifications/message'),
  dedicated('v2', 'ServerContext.mcpReq', V2_SERVER, 'elicitInput', 'elicitation/create'),
  dedicated('v2', 'ServerContext.mcpReq', V2_SERVER, 'requestSampling', 'sampling/createMessage'),
  dedicated('v2', 'ServerContext.mcpReq', V2_SERVER, 'log', 'notifications/message'),
  generic('v2', 'ServerContext.mcpReq', V2_SERVER, 'send', 'request'),
  generic('v2', 'ServerContext.mcpReq', V2_SERVER, 'notify', 'notification'),
  ...clientMembers('v2', V2_CLIENT),
];

const membersByName = new Map<string, LegacyMember[]>();
for (const member of LEGACY_MEMBERS)
  membersByName.set(member.name, [...(membersByName.get(member.name) ?? []), member]);
const NO_MEMBERS: readonly LegacyMember[] = Object.freeze([]);

/** Every catalog member with this name, across owners and SDK generations. */
export function legacyMembersNamed(name: string): readonly LegacyMember[] {
  return membersByName.get(name) ?? NO_MEMBERS;
}

/** The catalog member for an owner and name, preferring the given SDK generation. */
export function legacyMember(
  owner: LegacyOwner,
  name: string,
  sdk?: SdkGeneration,
): LegacyMember | undefined {
  const matches = legacyMembersNamed(name).filter((m) => m.owner === owner);
  return matches.find((m) => sdk === undefined || m.sdk === sdk) ?? matches[0];
}
