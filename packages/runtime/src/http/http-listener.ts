import type { IncomingMessage, ServerResponse } from 'node:http';
import { ANONYMOUS_PRINCIPAL } from '../principal.js';
import { ERROR_CODES } from '../protocol.js';
import type { JsonRpcEndpoint } from './json-rpc-endpoint.js';

export interface HttpListenerOptions {
  /** The path the endpoint answers on. Default `/mcp`. */
  readonly path?: string;
  /** Largest request body accepted. Default 4 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * The authenticated principal of a request, from auth your server verified (a session, a
   * validated bearer token). Default: everyone is `anonymous`, so state binds to the request only.
   */
  readonly principal?: (request: IncomingMessage) => string | Promise<string>;
  /** Called when the listener itself fails (never with client-caused errors). */
  readonly onError?: (error: unknown) => void;
}

function send(
  res: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): void {
  if (body === undefined) {
    res.writeHead(status, headers).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function rpcError(code: number, message: string): unknown {
  return { jsonrpc: '2.0', id: null, error: { code, message } };
}

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function headerReader(req: IncomingMessage): { get(name: string): string | null } {
  return {
    get(name) {
      const value = req.headers[name.toLowerCase()];
      return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
    },
  };
}

/** A `node:http` request listener serving a {@link JsonRpcEndpoint} on one path with POST. */
export function createHttpListener(
  endpoint: JsonRpcEndpoint,
  options: HttpListenerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const path = options.path ?? '/mcp';
  const limit = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== path) return send(res, 404);
    if (req.method !== 'POST') return send(res, 405, undefined, { allow: 'POST' });
    const type = req.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') {
      return send(res, 415, rpcError(ERROR_CODES.invalidRequest, 'Content-Type must be application/json.'));
    }
    let body: Buffer;
    try {
      body = await readBody(req, limit);
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        return send(res, 413, rpcError(ERROR_CODES.invalidRequest, 'Request body too large.'), {
          connection: 'close',
        });
      }
      throw error;
    }
    let message: unknown;
    try {
      message = JSON.parse(body.toString('utf8'));
    } catch {
      return send(res, 400, rpcError(ERROR_CODES.parseError, 'Parse error'));
    }
    const disconnected = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) disconnected.abort();
    });
    const principal = options.principal ? await options.principal(req) : ANONYMOUS_PRINCIPAL;
    const response = await endpoint.handle({
      message,
      headers: headerReader(req),
      principal,
      signal: disconnected.signal,
    });
    if (!disconnected.signal.aborted) send(res, response.status, response.body);
  };
  return (req, res) => {
    serve(req, res).catch((error: unknown) => {
      options.onError?.(error);
      if (!res.headersSent) send(res, 500, rpcError(ERROR_CODES.internalError, 'Internal error'));
      else res.destroy();
    });
  };
}
