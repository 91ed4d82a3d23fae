import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Extra } from './sdk-v1-round.js';

/**
 * The request context for a handler that code calls directly, without the SDK: a test that takes
 * a tool's handler from the server and calls it with its arguments alone. The handler before the
 * migration never read its context then, and answered its questions through the server's own push
 * methods, which such a test stubs; so do these. A direct call has no request to relate the
 * questions to, no session and no credentials, and nothing aborts it.
 */
export function directCallExtra(server: Server): Extra {
  const context: Omit<Extra, 'requestId'> = {
    signal: new AbortController().signal,
    sendNotification: (notification) => server.notification(notification),
    sendRequest: ((request, resultSchema, options) =>
      request.method === 'elicitation/create'
        ? server.elicitInput(request.params, options)
        : server.request(request, resultSchema, options)) as Extra['sendRequest'],
  };
  // No request id: the questions it sends are not related to any request of the transport.
  return context as Extra;
}
