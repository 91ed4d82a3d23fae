import { AsyncLocalStorage } from 'node:async_hooks';
import type { Transport } from '@modelcontextprotocol/server';
import { isJsonObject } from '../protocol.js';

/** The JSON-RPC request being handled, as it arrived on the wire. */
export interface WireRequest {
  readonly id: string | number;
  readonly method: string;
  readonly params?: unknown;
}

const scope = new AsyncLocalStorage<WireRequest>();
/** What a server connects through: an `McpServer` or a low-level `Server`. */
export interface Connectable {
  connect(transport: Transport): Promise<void>;
}

const bound = new WeakSet<Connectable>();

function isWireRequest(message: unknown): message is WireRequest {
  return (
    isJsonObject(message) &&
    typeof message.method === 'string' &&
    (typeof message.id === 'string' || typeof message.id === 'number')
  );
}

/**
 * Makes each incoming request available to code that runs while it is handled. SDK v2's
 * `requestState.verify` hook receives only the handler context, which carries no params, yet state
 * must be verified against the tool name and arguments before the handler runs. So once the
 * server is connected, its transport's message callback is wrapped to run each request inside an
 * async scope holding the wire request. Idempotent; it survives reconnects.
 */
export function bindRequestScope(server: Connectable): void {
  if (bound.has(server)) return;
  bound.add(server);
  const connect = server.connect.bind(server);
  server.connect = async (transport: Transport): Promise<void> => {
    await connect(transport);
    const dispatch = transport.onmessage;
    if (!dispatch) return;
    transport.onmessage = (message, extra) => {
      if (isWireRequest(message)) scope.run(message, () => dispatch.call(transport, message, extra));
      else dispatch.call(transport, message, extra);
    };
  };
}

/** The wire request with this id, when the current code runs on its behalf. */
export function requestInScope(id: string | number): WireRequest | undefined {
  const request = scope.getStore();
  return request?.id === id ? request : undefined;
}
