import { EventSourceParserStream } from 'eventsource-parser/stream';
import { JsonRpcError } from '../errors.js';
import {
  ERROR_CODES,
  isJsonObject,
  META_KEYS,
  PROTOCOL_VERSION,
  type ClientCapabilities,
  type JsonObject,
} from '../protocol.js';
import { callWithInput, type CallWithInputOptions } from './call-with-input.js';
import { InvalidServerResultError } from './client-errors.js';

export interface HttpJsonRpcClientOptions {
  readonly url: string | URL;
  readonly clientInfo: { readonly name: string; readonly version: string };
  /** Declared on every request, as 2026-07-28 requires; see `clientCapabilitiesFor`. */
  readonly capabilities: ClientCapabilities;
  /** Extra headers on every request, e.g. `Authorization`. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly fetch?: typeof fetch;
}

type CallOptions = Omit<CallWithInputOptions, 'signal'> & { readonly signal?: AbortSignal };

async function fromEventStream(body: ReadableStream<Uint8Array>, id: number): Promise<unknown> {
  const events = body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  for await (const event of events) {
    let message: unknown;
    try {
      message = JSON.parse(event.data);
    } catch {
      continue;
    }
    if (isJsonObject(message) && message.id === id && ('result' in message || 'error' in message))
      return message;
  }
  return undefined;
}

/**
 * A minimal 2026-07-28 JSON-RPC client over HTTP, for tests, scripts and SDK-less clients: a new
 * id per request, the per-request `_meta` envelope and the standard headers, JSON or SSE replies.
 */
export class HttpJsonRpcClient {
  private nextId = 1;
  private readonly options: HttpJsonRpcClientOptions;

  constructor(options: HttpJsonRpcClientOptions) {
    this.options = options;
  }

  /** Sends one request and resolves with its result; a JSON-RPC error rejects as {@link JsonRpcError}. */
  async request(method: string, params: JsonObject = {}, signal?: AbortSignal): Promise<JsonObject> {
    const id = this.nextId++;
    const meta = isJsonObject(params._meta) ? params._meta : {};
    const body = {
      jsonrpc: '2.0',
      id,
      method,
      params: {
        ...params,
        _meta: {
          [META_KEYS.protocolVersion]: PROTOCOL_VERSION,
          [META_KEYS.clientInfo]: this.options.clientInfo,
          [META_KEYS.clientCapabilities]: this.options.capabilities,
          ...meta,
        },
      },
    };
    const target = method === 'resources/read' ? params.uri : params.name;
    const response = await (this.options.fetch ?? fetch)(this.options.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': PROTOCOL_VERSION,
        'mcp-method': method,
        ...(typeof target === 'string' && { 'mcp-name': target }),
        ...this.options.headers,
      },
      body: JSON.stringify(body),
      ...(signal && { signal }),
    });
    const type = response.headers.get('content-type') ?? '';
    const message: unknown =
      type.includes('text/event-stream') && response.body
        ? await fromEventStream(response.body, id)
        : await response.json().catch(() => undefined);
    if (!isJsonObject(message)) {
      throw new InvalidServerResultError(
        `HTTP ${response.status}: no JSON-RPC response for ${method}.`,
        message,
      );
    }
    if (isJsonObject(message.error)) {
      const { code, message: text, data } = message.error;
      throw new JsonRpcError(
        typeof code === 'number' ? code : ERROR_CODES.internalError,
        typeof text === 'string' ? text : 'Unknown error',
        isJsonObject(data) ? data : undefined,
      );
    }
    if (!isJsonObject(message.result))
      throw new InvalidServerResultError(`No result for ${method}.`, message);
    return message.result;
  }

  /** `tools/call` through the MRTR retry loop. */
  callTool(name: string, args: JsonObject, options: CallOptions): Promise<JsonObject> {
    return callWithInput(
      (params, signal) => this.request('tools/call', params, signal),
      { name, arguments: args },
      options,
    );
  }

  /** `prompts/get` through the MRTR retry loop. */
  getPrompt(name: string, args: Readonly<Record<string, string>>, options: CallOptions): Promise<JsonObject> {
    return callWithInput(
      (params, signal) => this.request('prompts/get', params, signal),
      { name, arguments: args },
      options,
    );
  }

  /** `resources/read` through the MRTR retry loop. */
  readResource(uri: string, options: CallOptions): Promise<JsonObject> {
    return callWithInput(
      (params, signal) => this.request('resources/read', params, signal),
      { uri },
      options,
    );
  }
}
