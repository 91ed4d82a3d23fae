import { isMrtrEligibleMethod, type MrtrEligibleMethod } from '@mcp-mrtr/core';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { requireClientCapabilities } from '../capabilities.js';
import {
  ElicitationContentError,
  InvalidParamsError,
  JsonRpcError,
  MrtrUsageError,
  RequestStateError,
  RuntimeConfigError,
} from '../errors.js';
import type { MrtrHandler } from '../handlers.js';
import {
  ERROR_CODES,
  isInputRequiredResult,
  isJsonObject,
  type ClientCapabilities,
  type JsonObject,
} from '../protocol.js';
import type { MrtrRuntime, RoundState } from '../runtime.js';
import { requestIdentityOf } from '../state/request-identity.js';
import { EnvelopeError, readEnvelope, SUPPORTED_PROTOCOL_VERSIONS, type HeaderReader } from './envelope.js';
import type { ServerDefinition, ToolDefinition } from './server-definition.js';

export interface JsonRpcEndpointOptions extends ServerDefinition {
  readonly runtime: MrtrRuntime;
  /**
   * Server-side log of errors the client only sees as a generic JSON-RPC error: requestState
   * failures with their reason, handler bugs, handler exceptions.
   */
  readonly onError?: (error: unknown, method: string | undefined) => void;
}

/** One HTTP POST, parsed. */
export interface EndpointRequest {
  readonly message: unknown;
  readonly headers: HeaderReader;
  /** The authenticated principal, from verified auth (never from the request body). */
  readonly principal: string;
  readonly signal?: AbortSignal;
}

export interface EndpointResponse {
  readonly status: number;
  /** The JSON-RPC response; absent for notifications and client responses (HTTP 202). */
  readonly body?: JsonObject;
}

type RequestId = string | number;

const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';
const CACHE = { ttlMs: 0, cacheScope: 'private' } as const;
const ACCEPTED: EndpointResponse = { status: 202 };

function errorResponse(id: RequestId | null, error: JsonRpcError, status: number): EndpointResponse {
  return { status, body: { jsonrpc: '2.0', id, error: error.toJson() } };
}

function statusOf(error: JsonRpcError): number {
  if (error instanceof EnvelopeError) return 400;
  return error.code === ERROR_CODES.missingRequiredClientCapability ? 400 : 200;
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * A 2026-07-28 JSON-RPC endpoint for servers that use no SDK: `server/discover`, the list methods,
 * and `tools/call`, `prompts/get` and `resources/read` served through the runtime, every result
 * stamped with `resultType`. Transport-neutral: see `createHttpListener` for node:http.
 */
export class JsonRpcEndpoint {
  private readonly options: JsonRpcEndpointOptions;
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly argumentValidators = new Map<string, ValidateFunction>();

  constructor(options: JsonRpcEndpointOptions) {
    this.options = options;
    for (const [name, tool] of Object.entries(options.tools ?? {})) {
      if (tool.inputSchema) this.argumentValidators.set(name, this.ajv.compile(tool.inputSchema));
    }
  }

  async handle(request: EndpointRequest): Promise<EndpointResponse> {
    const { message } = request;
    if (Array.isArray(message)) {
      return errorResponse(
        null,
        new JsonRpcError(ERROR_CODES.invalidRequest, 'Batches are not supported.'),
        400,
      );
    }
    if (!isJsonObject(message) || message.jsonrpc !== '2.0') {
      return errorResponse(
        null,
        new JsonRpcError(ERROR_CODES.invalidRequest, 'Not a JSON-RPC 2.0 message.'),
        400,
      );
    }
    if (typeof message.method !== 'string') {
      // A response from the client: nothing in this stateless server awaits one.
      return 'result' in message || 'error' in message
        ? ACCEPTED
        : errorResponse(null, new JsonRpcError(ERROR_CODES.invalidRequest, 'A request needs a method.'), 400);
    }
    if (!('id' in message)) return ACCEPTED;
    if (!isRequestId(message.id)) {
      return errorResponse(
        null,
        new JsonRpcError(ERROR_CODES.invalidRequest, 'The id must be a string or a number.'),
        400,
      );
    }
    const { id, method } = message;
    try {
      if (message.params !== undefined && !isJsonObject(message.params)) {
        throw new InvalidParamsError('params must be an object.');
      }
      const params = message.params ?? {};
      const envelope = readEnvelope(method, params, request.headers);
      const result = await this.dispatch(method, params, envelope.clientCapabilities, request);
      const meta = {
        ...(isJsonObject(result._meta) ? result._meta : {}),
        [SERVER_INFO_KEY]: this.options.serverInfo,
      };
      return { status: 200, body: { jsonrpc: '2.0', id, result: { ...result, _meta: meta } } };
    } catch (error) {
      if (error instanceof JsonRpcError) {
        if (error instanceof RequestStateError) this.options.onError?.(error, method);
        return errorResponse(id, error, statusOf(error));
      }
      this.options.onError?.(error, method);
      return errorResponse(id, new JsonRpcError(ERROR_CODES.internalError, 'Internal error'), 200);
    }
  }

  private async dispatch(
    method: string,
    params: JsonObject,
    capabilities: ClientCapabilities,
    request: EndpointRequest,
  ): Promise<JsonObject> {
    if (isMrtrEligibleMethod(method)) return this.serveRound(method, params, capabilities, request);
    switch (method) {
      case 'server/discover':
        return {
          resultType: 'complete',
          supportedVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
          capabilities: this.capabilities(),
          ...(this.options.instructions !== undefined && { instructions: this.options.instructions }),
          ...CACHE,
        };
      case 'tools/list':
        return { resultType: 'complete', tools: this.listTools(), ...CACHE };
      case 'prompts/list':
        return {
          resultType: 'complete',
          prompts: Object.entries(this.options.prompts ?? {}).map(
            ([name, { handler: _handler, ...prompt }]) => ({
              name,
              ...prompt,
            }),
          ),
          ...CACHE,
        };
      case 'resources/list':
        return {
          resultType: 'complete',
          resources: Object.entries(this.options.resources ?? {}).map(
            ([uri, { handler: _handler, ...resource }]) => ({
              uri,
              ...resource,
            }),
          ),
          ...CACHE,
        };
      case 'resources/templates/list':
        return { resultType: 'complete', resourceTemplates: [], ...CACHE };
      default:
        throw new JsonRpcError(ERROR_CODES.methodNotFound, `Method not found: ${method}`);
    }
  }

  private capabilities(): JsonObject {
    return {
      ...(this.options.tools && { tools: {} }),
      ...(this.options.prompts && { prompts: {} }),
      ...(this.options.resources && { resources: {} }),
    };
  }

  private listTools(): JsonObject[] {
    return Object.entries(this.options.tools ?? {}).map(
      ([name, tool]: [string, ToolDefinition<unknown, unknown>]) => ({
        name,
        ...(tool.title !== undefined && { title: tool.title }),
        ...(tool.description !== undefined && { description: tool.description }),
        inputSchema: tool.inputSchema ?? { type: 'object' },
        ...(tool.annotations !== undefined && { annotations: tool.annotations }),
      }),
    );
  }

  /** The handler for a request and the arguments it receives, after checking the params. */
  private resolve(
    method: MrtrEligibleMethod,
    params: JsonObject,
  ): { handler: MrtrHandler<MrtrEligibleMethod, unknown, unknown>; args: unknown } {
    if (method === 'resources/read') {
      if (typeof params.uri !== 'string') throw new InvalidParamsError('resources/read needs a uri.');
      const resource = this.options.resources?.[params.uri];
      if (!resource)
        throw new JsonRpcError(ERROR_CODES.invalidParams, 'Resource not found', { uri: params.uri });
      return {
        handler: resource.handler as MrtrHandler<MrtrEligibleMethod, unknown, unknown>,
        args: { uri: params.uri },
      };
    }
    const name = params.name;
    if (typeof name !== 'string') throw new InvalidParamsError(`${method} needs a name.`);
    const args = params.arguments ?? {};
    if (!isJsonObject(args)) throw new InvalidParamsError('arguments must be an object.');
    if (method === 'prompts/get') {
      const prompt = this.options.prompts?.[name];
      if (!prompt) throw new InvalidParamsError(`Unknown prompt: ${name}`);
      for (const argument of prompt.arguments ?? []) {
        if (argument.required && typeof args[argument.name] !== 'string') {
          throw new InvalidParamsError(`Prompt ${name} needs the string argument "${argument.name}".`);
        }
      }
      return { handler: prompt.handler as MrtrHandler<MrtrEligibleMethod, unknown, unknown>, args };
    }
    const tool = this.options.tools?.[name];
    if (!tool) throw new InvalidParamsError(`Unknown tool: ${name}`);
    const validate = this.argumentValidators.get(name);
    if (validate && !validate(args)) {
      throw new InvalidParamsError(
        `Invalid arguments for tool ${name}: ${this.ajv.errorsText(validate.errors)}`,
      );
    }
    return { handler: tool.handler as MrtrHandler<MrtrEligibleMethod, unknown, unknown>, args };
  }

  private async serveRound(
    method: MrtrEligibleMethod,
    params: JsonObject,
    capabilities: ClientCapabilities,
    request: EndpointRequest,
  ): Promise<JsonObject> {
    const { handler, args } = this.resolve(method, params);
    const identity = requestIdentityOf(method, params);
    if (!identity) throw new InvalidParamsError(`${method} params do not name what they target.`);
    const state: RoundState | undefined =
      'requestState' in params ? { token: params.requestState } : undefined;
    let result;
    try {
      result = await this.options.runtime.runRound(handler, {
        request: identity,
        args,
        principal: request.principal,
        clientCapabilities: capabilities,
        inputResponses: params.inputResponses,
        ...(state && { state }),
        ...(request.signal && { signal: request.signal }),
      });
    } catch (error) {
      // A failing tool reports to the model as an isError result, as SDK servers do (content
      // outside a form's schema included, as from SDK elicitInput); protocol errors, handler bugs
      // and the server's own configuration (keys unset or malformed) stay JSON-RPC errors.
      const protocolError = error instanceof JsonRpcError && !(error instanceof ElicitationContentError);
      const serverFault = error instanceof MrtrUsageError || error instanceof RuntimeConfigError;
      if (method !== 'tools/call' || protocolError || serverFault) throw error;
      this.options.onError?.(error, method);
      return {
        resultType: 'complete',
        isError: true,
        content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }],
      };
    }
    if (isInputRequiredResult(result)) {
      requireClientCapabilities(result.inputRequests ?? {}, capabilities);
      return { ...result };
    }
    return {
      ...result,
      resultType: 'complete',
      ...(method === 'resources/read' && CACHE),
    };
  }
}
