import type { MrtrEligibleMethod } from '@mcp-mrtr/core';
import {
  ResourceTemplate,
  type McpServer,
  type PromptCallback,
  type RegisteredPrompt,
  type RegisteredResource,
  type RegisteredResourceTemplate,
  type RegisteredTool,
  type ResourceMetadata,
  type ToolCallback,
} from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Variables } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  ErrorCode,
  McpError,
  type CallToolRequest,
  type CallToolResult,
  type GetPromptRequest,
  type GetPromptResult,
  type ReadResourceRequest,
  type ReadResourceResult,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { ElicitationContentError, JournalFormatError, MissingClientCapabilityError } from '../errors.js';
import type { MrtrHandler, RequestHandlerOptions, ResourceTarget } from '../handlers.js';
import { principalFromAuth } from '../principal.js';
import type {
  CompleteResultByMethod,
  InputRequiredResult,
  PromptResult,
  ResourceResult,
  ToolResult,
} from '../protocol.js';
import type { MrtrRuntime } from '../runtime.js';
import { requestIdentityOf, type RequestIdentity } from '../state/request-identity.js';
import {
  LegacyFulfilment,
  LegacyFulfilmentError,
  type LegacyFulfilmentOptions,
} from './legacy-fulfilment.js';
import { directCallExtra } from './direct-call-extra.js';
import { SdkV1Round, type Extra } from './sdk-v1-round.js';

export interface SdkV1AdapterOptions extends LegacyFulfilmentOptions {
  /**
   * The authenticated principal of a request, from verified auth. Default: `principalFromAuth`
   * of `extra.authInfo` (the token's `sub`, else the OAuth client id, else `anonymous`).
   */
  readonly principal?: (extra: Extra) => string;
}

// Schema types come from the SDK's own declarations, not from zod-compat.js (1.23 and later), so
// they follow the installed release: zod 3 raw shapes on 1.14 to 1.22, zod 3 or 4 from 1.23.
/** A raw shape (`{ service: z.string() }`), as every SDK v1 release takes. */
type ToolInputShape = NonNullable<Parameters<RegisteredTool['update']>[0]['paramsSchema']>;
/** A whole schema (`z.object({ … })`), as SDK v1 takes from 1.23. */
type ToolInputObject = NonNullable<RegisteredTool['inputSchema']>;
/** What the installed SDK accepts as a tool's input schema. */
export type ToolInputSchema = ToolInputShape | ToolInputObject;
/** What the installed SDK accepts as a prompt's arguments schema: a raw shape of string schemas. */
export type PromptArgsSchema = NonNullable<Parameters<RegisteredPrompt['update']>[0]['argsSchema']>;

/** The output type of a zod 4 or zod 3 schema. */
type SchemaOutput<S> = S extends { readonly _zod: { readonly output: infer O } }
  ? O
  : S extends { readonly _output: infer O }
    ? O
    : never;

/** The arguments the SDK parses a tool's input into, as its own callbacks receive them. */
type ToolArgsOf<S> = S extends ToolInputShape
  ? Parameters<ToolCallback<S>>[0]
  : S extends ToolInputObject
    ? SchemaOutput<S>
    : Record<string, never>;

type PromptArgsOf<S> = S extends PromptArgsSchema ? Parameters<PromptCallback<S>>[0] : Record<string, never>;

export interface ToolConfig<Input extends ToolInputSchema | undefined> {
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema?: Input;
  readonly outputSchema?: ToolInputSchema;
  readonly annotations?: ToolAnnotations;
  readonly _meta?: Record<string, unknown>;
}

export interface PromptConfig<Input extends PromptArgsSchema | undefined> {
  readonly title?: string;
  readonly description?: string;
  readonly argsSchema?: Input;
}

type Outcome<R> = R | InputRequiredResult | Promise<R | InputRequiredResult>;

/** A re-entrant `tools/call` handler on SDK v1 (it may complete with the SDK's result type); `round.extra` is the SDK's request context. */
export type SdkV1ToolHandler<Args = Record<string, unknown>, State = unknown> = (
  args: Args,
  round: SdkV1Round<State>,
) => Outcome<ToolResult | CallToolResult>;

/** A re-entrant `prompts/get` handler on SDK v1. */
export type SdkV1PromptHandler<Args = Record<string, string>, State = unknown> = (
  args: Args,
  round: SdkV1Round<State>,
) => Outcome<PromptResult | GetPromptResult>;

/** A re-entrant `resources/read` handler on SDK v1. */
export type SdkV1ResourceHandler<State = unknown> = (
  resource: ResourceTarget,
  round: SdkV1Round<State>,
) => Outcome<ResourceResult | ReadResourceResult>;

/** The request a low-level SDK v1 handler receives, by method. */
export interface SdkV1RequestByMethod {
  'tools/call': CallToolRequest;
  'prompts/get': GetPromptRequest;
  'resources/read': ReadResourceRequest;
}

/** The result a low-level SDK v1 handler completes with, by method. */
export interface SdkV1ResultByMethod {
  'tools/call': CallToolResult;
  'prompts/get': GetPromptResult;
  'resources/read': ReadResourceResult;
}

/**
 * A re-entrant low-level handler: the whole request, as `server.setRequestHandler` passes it. It
 * completes with the SDK's result type or the runtime's.
 */
export type SdkV1RequestHandler<M extends MrtrEligibleMethod, State = unknown> = (
  request: SdkV1RequestByMethod[M],
  round: SdkV1Round<State>,
) => Outcome<SdkV1ResultByMethod[M] | CompleteResultByMethod[M]>;

/** The error SDK v1's elicitInput throws for content outside the schema: same code, same text. */
function asV1Error(error: unknown): unknown {
  if (error instanceof ElicitationContentError || error instanceof JournalFormatError) {
    return new McpError(ErrorCode.InvalidParams, error.message, error.data);
  }
  return error;
}

/** On 2025 connections -32021 does not exist; refusals are internal errors, as in SDK v2's shim. */
function asLegacyError(error: unknown): unknown {
  if (error instanceof MissingClientCapabilityError || error instanceof LegacyFulfilmentError) {
    return new McpError(ErrorCode.InternalError, error.message);
  }
  return asV1Error(error);
}

/**
 * Runs runtime handlers on an SDK v1 `McpServer` (1.14 or later): SDK v1 has no MRTR, so the runtime
 * fulfils each input_required round itself through `elicitInput` / `createMessage` / `listRoots`,
 * related to the originating request, checks the capabilities the client declared at initialize,
 * caps the rounds and follows cancellation. Tools report failures as isError results, prompts and
 * resources as JSON-RPC errors.
 *
 * ```ts
 * const mrtr = new SdkV1Adapter(runtime);
 * mrtr.registerTool(server, 'deploy', { inputSchema: { service: z.string() } }, deploy);
 * ```
 */
export class SdkV1Adapter {
  private readonly runtime: MrtrRuntime;
  private readonly fulfilment: LegacyFulfilment;
  private readonly principalOf: (extra: Extra) => string;

  constructor(runtime: MrtrRuntime, options: SdkV1AdapterOptions = {}) {
    this.runtime = runtime;
    this.fulfilment = new LegacyFulfilment(runtime, options);
    this.principalOf = options.principal ?? ((extra) => principalFromAuth(extra.authInfo));
  }

  registerTool<Input extends ToolInputSchema | undefined = undefined, State = unknown>(
    server: McpServer,
    name: string,
    config: ToolConfig<Input>,
    handler: SdkV1ToolHandler<ToolArgsOf<Input>, State>,
  ): RegisteredTool {
    const run = async (args: unknown, extra: Extra | undefined): Promise<CallToolResult> => {
      try {
        return (await this.serve(
          server.server,
          extra,
          { method: 'tools/call', target: name, arguments: args },
          args,
          handler as MrtrHandler<'tools/call', unknown, State, SdkV1Round<State>>,
        )) as CallToolResult;
      } catch (error) {
        throw asV1Error(error);
      }
    };
    if (config.inputSchema === undefined) {
      return server.registerTool(name, config as ToolConfig<undefined>, (extra) => run({}, extra));
    }
    return server.registerTool(name, config as ToolConfig<ToolInputShape>, (args, extra) => run(args, extra));
  }

  registerPrompt<Input extends PromptArgsSchema | undefined = undefined, State = unknown>(
    server: McpServer,
    name: string,
    config: PromptConfig<Input>,
    handler: SdkV1PromptHandler<PromptArgsOf<Input>, State>,
  ): RegisteredPrompt {
    const run = async (args: unknown, extra: Extra | undefined): Promise<GetPromptResult> => {
      try {
        return (await this.serve(
          server.server,
          extra,
          { method: 'prompts/get', target: name, arguments: args },
          args,
          handler as MrtrHandler<'prompts/get', unknown, State, SdkV1Round<State>>,
        )) as GetPromptResult;
      } catch (error) {
        throw asLegacyError(error);
      }
    };
    if (config.argsSchema === undefined) {
      // v1 calls an argument-less prompt's callback with the context only; its types cannot say so.
      const withoutArgs = (extra: Extra) => run({}, extra);
      return server.registerPrompt(name, config, withoutArgs as never);
    }
    return server.registerPrompt(name, config, (args, extra) => run(args, extra));
  }

  /** A resource at a fixed URI, or a template whose matched variables reach the handler. */
  registerResource<State = unknown>(
    server: McpServer,
    name: string,
    uri: string,
    metadata: ResourceMetadata,
    handler: SdkV1ResourceHandler<State>,
  ): RegisteredResource;
  registerResource<State = unknown>(
    server: McpServer,
    name: string,
    template: ResourceTemplate,
    metadata: ResourceMetadata,
    handler: SdkV1ResourceHandler<State>,
  ): RegisteredResourceTemplate;
  registerResource<State = unknown>(
    server: McpServer,
    name: string,
    uriOrTemplate: string | ResourceTemplate,
    metadata: ResourceMetadata,
    handler: SdkV1ResourceHandler<State>,
  ): RegisteredResource | RegisteredResourceTemplate {
    const read = handler as MrtrHandler<'resources/read', unknown, State, SdkV1Round<State>>;
    const run = async (
      uri: URL,
      variables: Variables | undefined,
      extra: Extra | undefined,
    ): Promise<ReadResourceResult> => {
      try {
        const target = { uri: uri.href, ...(variables && { variables }) };
        return (await this.serve(
          server.server,
          extra,
          { method: 'resources/read', target: uri.href },
          target,
          read,
        )) as ReadResourceResult;
      } catch (error) {
        throw asLegacyError(error);
      }
    };
    if (uriOrTemplate instanceof ResourceTemplate) {
      return server.registerResource(name, uriOrTemplate, metadata, (uri, variables, extra) =>
        run(uri, variables, extra),
      );
    }
    return server.registerResource(name, uriOrTemplate, metadata, (uri, extra) => run(uri, undefined, extra));
  }

  /**
   * A low-level handler for `server.setRequestHandler(CallToolRequestSchema, …)` (or the prompt and
   * resource schemas) that runs a re-entrant handler receiving the whole request, so a handler
   * that switches on the tool name migrates in place. Failures are JSON-RPC errors, as before.
   *
   * ```ts
   * server.setRequestHandler(CallToolRequestSchema, mrtr.requestHandler(server, 'tools/call', async (request, round) => {
   *   switch (request.params.name) { … }
   * }));
   * ```
   *
   * `options.ownRoundTrip` names what the handler serves with a hand-written round trip: those
   * requests skip the legacy loop, so a 2025 client gets their input_required result as before.
   */
  requestHandler<M extends MrtrEligibleMethod, State = unknown>(
    server: Server,
    method: M,
    handler: SdkV1RequestHandler<M, State>,
    options: RequestHandlerOptions = {},
  ): (request: SdkV1RequestByMethod[M], extra: Extra) => Promise<SdkV1ResultByMethod[M]> {
    const ownRoundTrip = new Set(options.ownRoundTrip);
    return async (request, extra) => {
      const identity = requestIdentityOf(method, request.params);
      if (!identity)
        throw new McpError(ErrorCode.InvalidParams, `${method} params do not name what they target.`);
      if (ownRoundTrip.has(identity.target)) {
        return (await this.runtime.runOwnRoundTrip<M, SdkV1RequestByMethod[M], State, SdkV1Round<State>>(
          handler,
          {
            request: identity as RequestIdentity & { readonly method: M },
            args: request,
            principal: this.principalOf(extra),
            clientCapabilities: server.getClientCapabilities(),
            inputResponses: undefined,
            signal: extra.signal,
          },
          (init) => new SdkV1Round(init, extra),
        )) as SdkV1ResultByMethod[M];
      }
      try {
        return (await this.serve(
          server,
          extra,
          identity as RequestIdentity & { readonly method: M },
          request,
          handler as unknown as MrtrHandler<M, unknown, State, SdkV1Round<State>>,
        )) as SdkV1ResultByMethod[M];
      } catch (error) {
        throw asLegacyError(error);
      }
    };
  }

  /** `extra` is missing when code calls the registered callback directly, as a test may. */
  private serve<M extends MrtrEligibleMethod, State>(
    server: Server,
    given: Extra | undefined,
    request: RequestIdentity & { readonly method: M },
    args: unknown,
    handler: MrtrHandler<M, unknown, State, SdkV1Round<State>>,
  ) {
    const extra = given ?? directCallExtra(server);
    return this.fulfilment.run(handler, {
      server,
      extra,
      request,
      args,
      principal: this.principalOf(extra),
    });
  }
}
