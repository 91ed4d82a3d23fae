import type { MrtrEligibleMethod } from '@mcp-mrtr/core';
import {
  ResourceTemplate,
  type McpServer,
  type RegisteredPrompt,
  type RegisteredResource,
  type RegisteredResourceTemplate,
  type RegisteredTool,
  type ResourceMetadata,
} from '@modelcontextprotocol/sdk/server/mcp.js';
import type {
  AnySchema,
  SchemaOutput,
  ShapeOutput,
  ZodRawShapeCompat,
} from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { Variables } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  ErrorCode,
  McpError,
  type CallToolResult,
  type GetPromptResult,
  type ReadResourceResult,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { MissingClientCapabilityError } from '../errors.js';
import type { MrtrHandler, PromptHandler, ResourceHandler, ToolHandler } from '../handlers.js';
import { principalFromAuth } from '../principal.js';
import type { MrtrRuntime } from '../runtime.js';
import type { RequestIdentity } from '../state/request-identity.js';
import {
  LegacyFulfilment,
  LegacyFulfilmentError,
  type Extra,
  type LegacyFulfilmentOptions,
} from './legacy-fulfilment.js';

export interface SdkV1AdapterOptions extends LegacyFulfilmentOptions {
  /**
   * The authenticated principal of a request, from verified auth. Default: `principalFromAuth`
   * of `extra.authInfo` (the token's `sub`, else the OAuth client id, else `anonymous`).
   */
  readonly principal?: (extra: Extra) => string;
}

type ArgsOf<S> = S extends ZodRawShapeCompat
  ? ShapeOutput<S>
  : S extends AnySchema
    ? SchemaOutput<S>
    : Record<string, never>;

export interface ToolConfig<Input extends ZodRawShapeCompat | AnySchema | undefined> {
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema?: Input;
  readonly outputSchema?: ZodRawShapeCompat | AnySchema;
  readonly annotations?: ToolAnnotations;
  readonly _meta?: Record<string, unknown>;
}

export interface PromptConfig<Input extends Record<string, AnySchema> | undefined> {
  readonly title?: string;
  readonly description?: string;
  readonly argsSchema?: Input;
}

/** On 2025 connections -32021 does not exist; refusals are internal errors, as in SDK v2's shim. */
function asLegacyError(error: unknown): unknown {
  if (error instanceof MissingClientCapabilityError || error instanceof LegacyFulfilmentError) {
    return new McpError(ErrorCode.InternalError, error.message);
  }
  return error;
}

/**
 * Runs runtime handlers on an SDK v1 `McpServer` (1.32): SDK v1 has no MRTR, so the runtime
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
  private readonly fulfilment: LegacyFulfilment;
  private readonly principalOf: (extra: Extra) => string;

  constructor(runtime: MrtrRuntime, options: SdkV1AdapterOptions = {}) {
    this.fulfilment = new LegacyFulfilment(runtime, options);
    this.principalOf = options.principal ?? ((extra) => principalFromAuth(extra.authInfo));
  }

  registerTool<Input extends ZodRawShapeCompat | AnySchema | undefined = undefined, State = unknown>(
    server: McpServer,
    name: string,
    config: ToolConfig<Input>,
    handler: ToolHandler<ArgsOf<Input>, State>,
  ): RegisteredTool {
    const run = async (args: unknown, extra: Extra): Promise<CallToolResult> =>
      (await this.serve(
        server,
        extra,
        { method: 'tools/call', target: name, arguments: args },
        args,
        handler as MrtrHandler<'tools/call', unknown, State>,
      )) as CallToolResult;
    if (config.inputSchema === undefined) {
      return server.registerTool(name, config as ToolConfig<undefined>, (extra) => run({}, extra));
    }
    return server.registerTool(name, config as ToolConfig<ZodRawShapeCompat>, (args, extra) =>
      run(args, extra),
    );
  }

  registerPrompt<Input extends Record<string, AnySchema> | undefined = undefined, State = unknown>(
    server: McpServer,
    name: string,
    config: PromptConfig<Input>,
    handler: PromptHandler<ArgsOf<Input>, State>,
  ): RegisteredPrompt {
    const run = async (args: unknown, extra: Extra): Promise<GetPromptResult> => {
      try {
        return (await this.serve(
          server,
          extra,
          { method: 'prompts/get', target: name, arguments: args },
          args,
          handler as MrtrHandler<'prompts/get', unknown, State>,
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
    handler: ResourceHandler<State>,
  ): RegisteredResource;
  registerResource<State = unknown>(
    server: McpServer,
    name: string,
    template: ResourceTemplate,
    metadata: ResourceMetadata,
    handler: ResourceHandler<State>,
  ): RegisteredResourceTemplate;
  registerResource<State = unknown>(
    server: McpServer,
    name: string,
    uriOrTemplate: string | ResourceTemplate,
    metadata: ResourceMetadata,
    handler: ResourceHandler<State>,
  ): RegisteredResource | RegisteredResourceTemplate {
    const read = handler as MrtrHandler<'resources/read', unknown, State>;
    const run = async (
      uri: URL,
      variables: Variables | undefined,
      extra: Extra,
    ): Promise<ReadResourceResult> => {
      try {
        const target = { uri: uri.href, ...(variables && { variables }) };
        return (await this.serve(
          server,
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

  private serve<M extends MrtrEligibleMethod, State>(
    server: McpServer,
    extra: Extra,
    request: RequestIdentity & { readonly method: M },
    args: unknown,
    handler: MrtrHandler<M, unknown, State>,
  ) {
    return this.fulfilment.run(handler, {
      server: server.server,
      extra,
      request,
      args,
      principal: this.principalOf(extra),
    });
  }
}
