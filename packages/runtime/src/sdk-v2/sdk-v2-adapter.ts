import type { MrtrEligibleMethod } from '@mcp-mrtr/core';
import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
  Server,
  type CallToolResult,
  type GetPromptResult,
  type HandlerResultTypeMap,
  type Icon,
  type InputRequiredResult as SdkInputRequiredResult,
  type McpServer,
  type McpServerOptions,
  type ReadResourceResult,
  type RegisteredPrompt,
  type RegisteredResource,
  type RegisteredResourceTemplate,
  type RegisteredTool,
  type RequestTypeMap,
  type ResourceMetadata,
  type ServerContext,
  type StandardSchemaWithJSON,
  type ToolAnnotations,
  type Variables,
} from '@modelcontextprotocol/server';
import { ElicitationContentError, JournalFormatError, MrtrUsageError, RequestStateError } from '../errors.js';
import type { MrtrHandler, RequestHandlerOptions, ResourceTarget } from '../handlers.js';
import type { Journal } from '../journal/journal.js';
import { principalFromAuth } from '../principal.js';
import type {
  ClientCapabilities,
  CompleteResultByMethod,
  InputRequiredResult,
  PromptResult,
  ResourceResult,
  ToolResult,
} from '../protocol.js';
import type { MrtrRuntime, RoundState } from '../runtime.js';
import { requestIdentityOf, type RequestIdentity } from '../state/request-identity.js';
import { bindRequestScope, requestInScope } from './request-scope.js';
import { SdkV2Round } from './sdk-v2-round.js';

export interface SdkV2AdapterOptions {
  /**
   * The authenticated principal of a request, from verified auth. Default: `principalFromAuth` of
   * `ctx.http.authInfo` (the token's `sub`, else the OAuth client id, else `anonymous` on stdio or
   * HTTP without auth).
   */
  readonly principal?: (ctx: ServerContext) => string;
  /** Log of refused requestState, with the reason the client never sees. */
  readonly onStateRejected?: (error: RequestStateError) => void;
}

type ArgsOf<S> = S extends StandardSchemaWithJSON
  ? StandardSchemaWithJSON.InferOutput<S>
  : Record<string, never>;

export interface ToolConfig<Input extends StandardSchemaWithJSON | undefined> {
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema?: Input;
  readonly outputSchema?: StandardSchemaWithJSON;
  readonly annotations?: ToolAnnotations;
  readonly icons?: Icon[];
  readonly _meta?: Record<string, unknown>;
}

export interface PromptConfig<Input extends StandardSchemaWithJSON | undefined> {
  readonly title?: string;
  readonly description?: string;
  readonly argsSchema?: Input;
  readonly icons?: Icon[];
  readonly _meta?: Record<string, unknown>;
}

type Outcome<R> = R | InputRequiredResult | Promise<R | InputRequiredResult>;

/** A re-entrant `tools/call` handler on SDK v2 (it may complete with the SDK's result type); `round.ctx` is the SDK's request context. */
export type SdkV2ToolHandler<Args = Record<string, unknown>, State = unknown> = (
  args: Args,
  round: SdkV2Round<State>,
) => Outcome<ToolResult | CallToolResult>;

/** A re-entrant `prompts/get` handler on SDK v2. */
export type SdkV2PromptHandler<Args = Record<string, string>, State = unknown> = (
  args: Args,
  round: SdkV2Round<State>,
) => Outcome<PromptResult | GetPromptResult>;

/** A re-entrant `resources/read` handler on SDK v2. */
export type SdkV2ResourceHandler<State = unknown> = (
  resource: ResourceTarget,
  round: SdkV2Round<State>,
) => Outcome<ResourceResult | ReadResourceResult>;

/**
 * A re-entrant low-level handler: the whole request, as `setRequestHandler(method, …)` passes it.
 * It completes with the SDK's result type or the runtime's.
 */
export type SdkV2RequestHandler<M extends MrtrEligibleMethod, State = unknown> = (
  request: RequestTypeMap[M],
  round: SdkV2Round<State>,
) => Outcome<HandlerResultTypeMap[M] | CompleteResultByMethod[M]>;

/** The value the verify hook hands to the handler, so a verified `null` is not mistaken for "no state". */
class VerifiedState {
  constructor(
    readonly value: unknown,
    readonly journal: Journal | undefined,
    /** A state that verified but cannot be replayed: the handler's round answers with this error. */
    readonly refusal?: JournalFormatError,
  ) {}
}

/** The error SDK v2's elicitInput throws for content outside the schema: same code, same text. */
function asSdkError(error: unknown): unknown {
  if (error instanceof ElicitationContentError || error instanceof JournalFormatError) {
    return new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, error.data);
  }
  return error;
}

function lowLevel(server: McpServer | Server): Server {
  return server instanceof Server ? server : server.server;
}

function defaultPrincipal(ctx: ServerContext): string {
  return principalFromAuth(ctx.http?.authInfo);
}

/**
 * Runs runtime handlers on an SDK v2 `McpServer`. 2026-07-28 clients get native MRTR from the SDK
 * (it checks the requested input against the request's declared capabilities and answers
 * `-32021`); 2025 clients on stdio or sessionful HTTP are served by the SDK's legacy shim, which
 * re-enters the same handler. requestState is verified in the server's `requestState.verify` hook,
 * so a bad state is a `-32602` before any handler code runs.
 *
 * ```ts
 * const mrtr = new SdkV2Adapter(runtime);
 * const server = new McpServer(info, mrtr.serverOptions({ capabilities: { tools: {} } }));
 * mrtr.registerTool(server, 'deploy', { inputSchema }, deploy);
 * ```
 */
export class SdkV2Adapter {
  private readonly runtime: MrtrRuntime;
  private readonly principalOf: (ctx: ServerContext) => string;
  private readonly options: SdkV2AdapterOptions;
  /** What low-level handlers serve with a round trip of their own, by method (see `requestHandler`). */
  private readonly ownRoundTrips = new Map<MrtrEligibleMethod, Set<string>>();

  constructor(runtime: MrtrRuntime, options: SdkV2AdapterOptions = {}) {
    this.runtime = runtime;
    this.options = options;
    this.principalOf = options.principal ?? defaultPrincipal;
  }

  /** `McpServer` options with the requestState verification wired in. */
  serverOptions(options: McpServerOptions = {}): McpServerOptions {
    return { ...options, requestState: { verify: (state, ctx) => this.verify(state, ctx) } };
  }

  registerTool<Input extends StandardSchemaWithJSON | undefined = undefined, State = unknown>(
    server: McpServer,
    name: string,
    config: ToolConfig<Input>,
    handler: SdkV2ToolHandler<ArgsOf<Input>, State>,
  ): RegisteredTool {
    bindRequestScope(server);
    const run = async (args: unknown, ctx: ServerContext) =>
      (await this.round(
        'tools/call',
        server.server,
        ctx,
        args,
        handler as MrtrHandler<'tools/call', unknown, State, SdkV2Round<State>>,
      )) as CallToolResult | SdkInputRequiredResult;
    if (config.inputSchema === undefined) {
      return server.registerTool(name, config as ToolConfig<undefined>, (ctx) => run({}, ctx));
    }
    return server.registerTool(name, config as ToolConfig<StandardSchemaWithJSON>, (args, ctx) =>
      run(args, ctx),
    );
  }

  registerPrompt<Input extends StandardSchemaWithJSON | undefined = undefined, State = unknown>(
    server: McpServer,
    name: string,
    config: PromptConfig<Input>,
    handler: SdkV2PromptHandler<ArgsOf<Input>, State>,
  ): RegisteredPrompt {
    bindRequestScope(server);
    const run = async (args: unknown, ctx: ServerContext) =>
      (await this.round(
        'prompts/get',
        server.server,
        ctx,
        args,
        handler as MrtrHandler<'prompts/get', unknown, State, SdkV2Round<State>>,
      )) as GetPromptResult | SdkInputRequiredResult;
    if (config.argsSchema === undefined) {
      return server.registerPrompt(name, { ...config, argsSchema: undefined }, (ctx) => run({}, ctx));
    }
    return server.registerPrompt(name, config as PromptConfig<StandardSchemaWithJSON>, (args, ctx) =>
      run(args, ctx),
    );
  }

  /** A resource at a fixed URI, or a template whose matched variables reach the handler. */
  registerResource<State = unknown>(
    server: McpServer,
    name: string,
    uri: string,
    config: ResourceMetadata,
    handler: SdkV2ResourceHandler<State>,
  ): RegisteredResource;
  registerResource<State = unknown>(
    server: McpServer,
    name: string,
    template: ResourceTemplate,
    config: ResourceMetadata,
    handler: SdkV2ResourceHandler<State>,
  ): RegisteredResourceTemplate;
  registerResource<State = unknown>(
    server: McpServer,
    name: string,
    uriOrTemplate: string | ResourceTemplate,
    config: ResourceMetadata,
    handler: SdkV2ResourceHandler<State>,
  ): RegisteredResource | RegisteredResourceTemplate {
    bindRequestScope(server);
    const read = handler as MrtrHandler<'resources/read', unknown, State, SdkV2Round<State>>;
    const run = async (uri: URL, variables: Variables | undefined, ctx: ServerContext) =>
      (await this.round(
        'resources/read',
        server.server,
        ctx,
        { uri: uri.href, ...(variables && { variables }) },
        read,
      )) as ReadResourceResult | SdkInputRequiredResult;
    if (uriOrTemplate instanceof ResourceTemplate) {
      return server.registerResource(name, uriOrTemplate, config, (uri, variables, ctx) =>
        run(uri, variables, ctx),
      );
    }
    return server.registerResource(name, uriOrTemplate, config, (uri, ctx) => run(uri, undefined, ctx));
  }

  /**
   * A low-level handler for `server.setRequestHandler('tools/call', …)` (or `prompts/get`,
   * `resources/read`) that runs a re-entrant handler receiving the whole request, so a handler
   * that switches on the tool name migrates in place. `server` is the `McpServer` or the low-level
   * `Server` (created with {@link serverOptions}) the handler is set on, before it connects.
   *
   * ```ts
   * server.server.setRequestHandler('tools/call', mrtr.requestHandler(server, 'tools/call', async (request, round) => {
   *   switch (request.params.name) { … }
   * }));
   * ```
   *
   * `options.ownRoundTrip` names what the handler serves with a hand-written round trip: those
   * requests run once with their result untouched, and their requestState reaches the handler as
   * the client sent it (on every server this adapter verifies state for).
   */
  requestHandler<M extends MrtrEligibleMethod, State = unknown>(
    server: McpServer | Server,
    method: M,
    handler: SdkV2RequestHandler<M, State>,
    options: RequestHandlerOptions = {},
  ): (request: RequestTypeMap[M], ctx: ServerContext) => Promise<HandlerResultTypeMap[M]> {
    bindRequestScope(server);
    const own = this.ownRoundTrips.get(method) ?? new Set<string>();
    for (const target of options.ownRoundTrip ?? []) own.add(target);
    if (own.size > 0) this.ownRoundTrips.set(method, own);
    const ownRoundTrip = new Set(options.ownRoundTrip);
    return async (request, ctx) => {
      const identity = this.identityOf(method, ctx) as RequestIdentity & { readonly method: M };
      if (ownRoundTrip.has(identity.target)) {
        return (await this.runtime.runOwnRoundTrip(
          handler as unknown as MrtrHandler<M, unknown, State, SdkV2Round<State>>,
          {
            request: identity,
            args: request,
            principal: this.principalOf(ctx),
            clientCapabilities: this.capabilitiesOf(lowLevel(server), ctx),
            inputResponses: undefined,
            signal: ctx.mcpReq.signal,
          },
          (init) => new SdkV2Round(init, ctx),
        )) as HandlerResultTypeMap[M];
      }
      return (await this.round(
        method,
        lowLevel(server),
        ctx,
        request,
        handler as unknown as MrtrHandler<M, unknown, State, SdkV2Round<State>>,
      )) as HandlerResultTypeMap[M];
    };
  }

  /** The wire identity of the request being handled; the scope is bound when a handler is registered. */
  private identityOf(method: MrtrEligibleMethod, ctx: ServerContext): RequestIdentity {
    const request = requestInScope(ctx.mcpReq.id);
    const identity = request?.method === method ? requestIdentityOf(method, request.params) : undefined;
    if (!identity) {
      throw new MrtrUsageError(
        `The ${method} request is not in scope: register handlers through SdkV2Adapter before connecting the server.`,
      );
    }
    return identity;
  }

  private async verify(token: string, ctx: ServerContext): Promise<VerifiedState | undefined> {
    try {
      const method = ctx.mcpReq.method as MrtrEligibleMethod;
      const request = this.identityOf(method, ctx);
      // Undefined leaves the SDK's raw requestState in place, for the handler's own round trip.
      if (this.ownRoundTrips.get(method)?.has(request.target)) return undefined;
      const opened = await this.runtime.sealer.openRound(token, {
        principal: this.principalOf(ctx),
        request,
      });
      return new VerifiedState(opened.value, opened.journal);
    } catch (error) {
      // The SDK would answer its own opaque -32602; this one must tell the client to start again.
      if (error instanceof JournalFormatError) return new VerifiedState(undefined, undefined, error);
      const refused =
        error instanceof RequestStateError ? error : new RequestStateError('request', String(error));
      this.options.onStateRejected?.(refused);
      // The SDK answers -32602 itself and passes this message to the server's onerror only.
      throw new Error(`requestState refused (${refused.reason}): ${refused.detail}`, { cause: error });
    }
  }

  private stateOf(ctx: ServerContext): RoundState | undefined {
    const state = ctx.mcpReq.requestState();
    if (state === undefined) return undefined;
    if (state instanceof VerifiedState) {
      if (state.refusal) throw state.refusal;
      return { opened: state.value, ...(state.journal && { journal: state.journal }) };
    }
    throw new MrtrUsageError(
      'requestState reached the handler unverified: create the McpServer with adapter.serverOptions(...).',
    );
  }

  private capabilitiesOf(server: Server, ctx: ServerContext): ClientCapabilities | undefined {
    // The published types declare the envelope as `{}`; its keys are the reserved _meta keys.
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    // 2026-07-28 requests carry their own capabilities; a 2025 session declared them at initialize.
    if (envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined) {
      return envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
    }
    return server.getClientCapabilities();
  }

  private async round<M extends MrtrEligibleMethod, State>(
    method: M,
    server: Server,
    ctx: ServerContext,
    args: unknown,
    handler: MrtrHandler<M, unknown, State, SdkV2Round<State>>,
  ) {
    const request = this.identityOf(method, ctx) as RequestIdentity & { readonly method: M };
    try {
      const state = this.stateOf(ctx);
      return await this.runtime.runRound(
        handler,
        {
          request,
          args,
          principal: this.principalOf(ctx),
          clientCapabilities: this.capabilitiesOf(server, ctx),
          inputResponses: ctx.mcpReq.inputResponses,
          ...(state && { state }),
          signal: ctx.mcpReq.signal,
        },
        (init) => new SdkV2Round(init, ctx),
      );
    } catch (error) {
      throw asSdkError(error);
    }
  }
}
