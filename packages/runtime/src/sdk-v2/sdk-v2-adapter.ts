import type { MrtrEligibleMethod } from '@mcp-mrtr/core';
import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ResourceTemplate,
  type CallToolResult,
  type GetPromptResult,
  type Icon,
  type InputRequiredResult as SdkInputRequiredResult,
  type McpServer,
  type McpServerOptions,
  type ReadResourceResult,
  type RegisteredPrompt,
  type RegisteredResource,
  type RegisteredResourceTemplate,
  type RegisteredTool,
  type ResourceMetadata,
  type ServerContext,
  type StandardSchemaWithJSON,
  type ToolAnnotations,
  type Variables,
} from '@modelcontextprotocol/server';
import { MrtrUsageError, RequestStateError } from '../errors.js';
import type { MrtrHandler, PromptHandler, ResourceHandler, ToolHandler } from '../handlers.js';
import { principalFromAuth } from '../principal.js';
import type { ClientCapabilities } from '../protocol.js';
import type { MrtrRuntime, RoundState } from '../runtime.js';
import { requestIdentityOf, type RequestIdentity } from '../state/request-identity.js';
import { bindRequestScope, requestInScope } from './request-scope.js';

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

/** The value the verify hook hands to the handler, so a verified `null` is not mistaken for "no state". */
class VerifiedState {
  constructor(readonly value: unknown) {}
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
    handler: ToolHandler<ArgsOf<Input>, State>,
  ): RegisteredTool {
    bindRequestScope(server);
    const run = async (args: unknown, ctx: ServerContext) =>
      (await this.round(
        'tools/call',
        server,
        ctx,
        args,
        handler as MrtrHandler<'tools/call', unknown, State>,
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
    handler: PromptHandler<ArgsOf<Input>, State>,
  ): RegisteredPrompt {
    bindRequestScope(server);
    const run = async (args: unknown, ctx: ServerContext) =>
      (await this.round(
        'prompts/get',
        server,
        ctx,
        args,
        handler as MrtrHandler<'prompts/get', unknown, State>,
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
    handler: ResourceHandler<State>,
  ): RegisteredResource;
  registerResource<State = unknown>(
    server: McpServer,
    name: string,
    template: ResourceTemplate,
    config: ResourceMetadata,
    handler: ResourceHandler<State>,
  ): RegisteredResourceTemplate;
  registerResource<State = unknown>(
    server: McpServer,
    name: string,
    uriOrTemplate: string | ResourceTemplate,
    config: ResourceMetadata,
    handler: ResourceHandler<State>,
  ): RegisteredResource | RegisteredResourceTemplate {
    bindRequestScope(server);
    const read = handler as MrtrHandler<'resources/read', unknown, State>;
    const run = async (uri: URL, variables: Variables | undefined, ctx: ServerContext) =>
      (await this.round(
        'resources/read',
        server,
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

  private async verify(token: string, ctx: ServerContext): Promise<VerifiedState> {
    try {
      const method = ctx.mcpReq.method as MrtrEligibleMethod;
      const request = this.identityOf(method, ctx);
      return new VerifiedState(
        await this.runtime.openState(token, { principal: this.principalOf(ctx), request }),
      );
    } catch (error) {
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
    if (state instanceof VerifiedState) return { opened: state.value };
    throw new MrtrUsageError(
      'requestState reached the handler unverified: create the McpServer with adapter.serverOptions(...).',
    );
  }

  private capabilitiesOf(server: McpServer, ctx: ServerContext): ClientCapabilities | undefined {
    // The published types declare the envelope as `{}`; its keys are the reserved _meta keys.
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    // 2026-07-28 requests carry their own capabilities; a 2025 session declared them at initialize.
    if (envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined) {
      return envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
    }
    return server.server.getClientCapabilities();
  }

  private round<M extends MrtrEligibleMethod, State>(
    method: M,
    server: McpServer,
    ctx: ServerContext,
    args: unknown,
    handler: MrtrHandler<M, unknown, State>,
  ) {
    const request = this.identityOf(method, ctx) as RequestIdentity & { readonly method: M };
    const state = this.stateOf(ctx);
    return this.runtime.runRound(handler, {
      request,
      args,
      principal: this.principalOf(ctx),
      clientCapabilities: this.capabilitiesOf(server, ctx),
      inputResponses: ctx.mcpReq.inputResponses,
      ...(state && { state }),
      signal: ctx.mcpReq.signal,
    });
  }
}
