import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { Round, type RoundInit } from '../round.js';

/** SDK v1's request context, as its handlers receive it. */
export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * A round on SDK v1, with the SDK's own request context: `round.extra.authInfo`, `sessionId`,
 * `signal`, `sendNotification` (progress) and the rest, exactly as a v1 handler received them.
 */
export class SdkV1Round<State = unknown> extends Round<State> {
  constructor(
    init: RoundInit<State>,
    readonly extra: Extra,
  ) {
    super(init);
  }
}
