import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ConnectEndpoint } from './connect-endpoint.js';

export interface ConnectListenerOptions {
  /**
   * Who the browser is signed in as on your server, from your own session (a cookie), or
   * undefined. Never from the URL: the ticket only says whom it was issued to.
   */
  readonly principal: (request: IncomingMessage) => string | undefined | Promise<string | undefined>;
  /** Serves every other path (your MCP endpoint, your sign-in page). Default: 404. */
  readonly fallback?: RequestListener;
  /** Called when the endpoint itself fails (a provider that throws building its URL, a store outage). */
  readonly onError?: (error: unknown) => void;
}

/** A `node:http` request listener serving a {@link ConnectEndpoint} and, optionally, everything else. */
export function createConnectListener(
  endpoint: ConnectEndpoint,
  options: ConnectListenerOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (!endpoint.matches(pathname)) {
      if (options.fallback) options.fallback(req, res);
      else res.writeHead(404).end();
      return;
    }
    const aborted = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) aborted.abort();
    });
    const response = await endpoint.handle({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      principal: await options.principal(req),
      signal: aborted.signal,
    });
    res.writeHead(response.status, response.headers).end(req.method === 'HEAD' ? undefined : response.body);
  };
  return (req, res) => {
    serve(req, res).catch((error: unknown) => {
      options.onError?.(error);
      if (!res.headersSent) res.writeHead(500, { 'cache-control': 'no-store' }).end();
      else res.destroy();
    });
  };
}
