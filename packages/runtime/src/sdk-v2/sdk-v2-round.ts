import type { ServerContext } from '@modelcontextprotocol/server';
import { Round, type RoundInit } from '../round.js';

/**
 * A round on SDK v2, with the SDK's own request context: `round.ctx.mcpReq` (id, signal, `notify`
 * for progress, `log`), `round.ctx.http?.authInfo`, `round.ctx.sessionId`, exactly as a v2 handler
 * received them.
 */
export class SdkV2Round<State = unknown> extends Round<State> {
  constructor(
    init: RoundInit<State>,
    readonly ctx: ServerContext,
  ) {
    super(init);
  }
}
