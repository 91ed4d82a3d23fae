import { clientSupports } from '../capabilities.js';
import type { ClientCapabilities, InputRequests } from '../protocol.js';

/**
 * SDK v1's own error for the first request the client declared no capability for, worded as
 * `elicitInput`, `createMessage` and `listRoots` word it: a migrated handler on the legacy loop
 * fails exactly as the push call it replaced did.
 */
export function pushCapabilityError(
  requests: InputRequests,
  declared: ClientCapabilities | undefined,
): Error | undefined {
  for (const request of Object.values(requests)) {
    if (clientSupports(declared, request)) continue;
    switch (request.method) {
      case 'elicitation/create':
        return new Error(
          request.params?.mode === 'url'
            ? 'Client does not support url elicitation.'
            : 'Client does not support form elicitation.',
        );
      case 'sampling/createMessage':
        return new Error('Client does not support sampling (required for sampling/createMessage)');
      case 'roots/list':
        return new Error('Client does not support listing roots (required for roots/list)');
    }
  }
  return undefined;
}
