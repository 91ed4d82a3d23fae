import type { LegacyOwner } from './legacy-members.js';
import { isMcpSdkModule } from './sdk-packages.js';

/**
 * How detection recognises the owner of a legacy member without running the code. Each entry is a
 * name the SDKs export (a class, or a handler-context type) and the catalog owner it stands for.
 */
export const SDK_OWNER_TYPES: Readonly<Record<string, LegacyOwner | 'ServerContext'>> = {
  Server: 'Server',
  McpServer: 'McpServer',
  Client: 'Client',
  RequestHandlerExtra: 'RequestHandlerExtra',
  ServerContext: 'ServerContext',
};

/**
 * Properties that lead from one owner to another: `mcpServer.server` is the low-level `Server`,
 * `ctx.mcpReq` the v2 request object that carries the push APIs.
 */
export const SDK_OWNER_PROPERTIES: Readonly<Record<string, LegacyOwner>> = {
  server: 'Server',
  mcpReq: 'ServerContext.mcpReq',
};

/** An SDK owner as syntax sees it: a catalog owner, or the v2 handler context. */
export type SdkOwnerName = LegacyOwner | 'ServerContext';

/** The owner each of {@link SDK_OWNER_PROPERTIES} leads from. */
const SDK_OWNER_PROPERTY_SOURCES: Readonly<Record<string, SdkOwnerName>> = {
  server: 'McpServer',
  mcpReq: 'ServerContext',
};

/**
 * Syntactic evidence, shared by the lint (ESTree) and the codemod without installed types
 * (TypeScript's AST): what a name imported from `module` (a class to `new`, or a type) stands
 * for. `undefined` when the module is not the MCP SDK; `'other'` for an SDK export that owns no
 * legacy member.
 */
export function sdkOwnerOfImport(module: string, imported: string): SdkOwnerName | 'other' | undefined {
  if (!isMcpSdkModule(module)) return undefined;
  return SDK_OWNER_TYPES[imported] ?? 'other';
}

/**
 * What `receiver.property` is, from what the receiver is: the owner the property leads to
 * (`mcpServer.server` is the low-level `Server`), `'other'` when the receiver is known and the
 * property leads nowhere from it, `undefined` when the property leads nowhere at all. A receiver
 * that is not known (`undefined`) is taken at the property's word.
 */
export function sdkOwnerThroughProperty(
  property: string,
  receiver: SdkOwnerName | 'other' | undefined,
): LegacyOwner | 'other' | undefined {
  const target = SDK_OWNER_PROPERTIES[property];
  if (target === undefined) return undefined;
  if (receiver === undefined) return target;
  return receiver === SDK_OWNER_PROPERTY_SOURCES[property] ? target : 'other';
}

/**
 * `agent.server.server`, `ctx.mcpServer.server`: frameworks hand out the `McpServer` as `server` or
 * `mcpServer`, and its `server` is the low-level `Server`. Syntax takes that chain as the SDK's
 * whatever its root is: the owner `holder.property` leads to, or `undefined` for any other chain.
 */
export function sdkOwnerOfServerChain(holder: string | undefined, property: string): LegacyOwner | undefined {
  return property === 'server' && (holder === 'server' || holder === 'mcpServer')
    ? SDK_OWNER_PROPERTIES.server
    : undefined;
}

/**
 * Where the SDK declarations put each owner's members, as "container.property" paths read from the
 * published `.d.ts` files. `Protocol` holds `request`/`notification` for `Server` (and `Client`);
 * v2 declares `ctx.mcpReq.send`/`notify` on `BaseContext` and the push APIs on `ServerContext`.
 */
export const SDK_DECLARATION_OWNERS: Readonly<Record<string, LegacyOwner>> = {
  Server: 'Server',
  Protocol: 'Server',
  McpServer: 'McpServer',
  Client: 'Client',
  RequestHandlerExtra: 'RequestHandlerExtra',
  'ServerContext.mcpReq': 'ServerContext.mcpReq',
  'BaseContext.mcpReq': 'ServerContext.mcpReq',
};

/**
 * Member names only the MCP SDK uses. In a file that imports the SDK, a call to one of these on a
 * receiver whose type cannot be worked out is still reported; common names such as `request` or
 * `log` need a receiver that resolves to the SDK. A push request's own name (`createMessage`) on
 * an unknown receiver in such a file is presumed the SDK's by both the lint and `migrate`.
 */
export const SDK_SPECIFIC_MEMBER_NAMES: ReadonlySet<string> = new Set([
  'elicitInput',
  'requestSampling',
  'listRoots',
  'sendLoggingMessage',
  'createElicitationCompletionNotifier',
  'setLoggingLevel',
  'sendRootsListChanged',
  'sendRequest',
  'sendNotification',
]);

/** Methods that register handlers; their first argument is a schema (v1) or a method string (v2). */
export const HANDLER_REGISTRATION_METHODS = ['setRequestHandler', 'setNotificationHandler'] as const;

/** Methods that declare capabilities after construction. */
export const CAPABILITY_REGISTRATION_METHODS = ['registerCapabilities'] as const;

/**
 * Calls that are push-style by their shape alone, whatever the receiver: a project's own context
 * wrapper or a framework object whose method keeps the SDK's name and takes the SDK's params
 * (`ctx.elicitInput({ message, requestedSchema })`). The argument must be an object literal with
 * every `required` property and, when `oneOf` lists any, at least one of them.
 */
export interface PushCallShape {
  readonly owner: LegacyOwner;
  readonly required: readonly string[];
  readonly oneOf: readonly string[];
}

export const PUSH_CALL_SHAPES: Readonly<Record<string, PushCallShape>> = {
  elicitInput: { owner: 'Server', required: ['message'], oneOf: ['requestedSchema', 'schema', 'url'] },
};

/** Whether an argument whose keys `has` answers for has a push call's shape. */
export function hasPushCallShape(shape: PushCallShape, has: (key: string) => boolean): boolean {
  return shape.required.every(has) && (shape.oneOf.length === 0 || shape.oneOf.some(has));
}
