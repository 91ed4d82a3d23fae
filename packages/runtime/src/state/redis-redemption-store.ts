import type { RedemptionStore } from './redemption-store.js';

/**
 * Sends one raw Redis command and resolves with its reply. Any client fits:
 * `(args) => client.sendCommand(args)` with node-redis, `(args) => client.call(...args)` with ioredis.
 */
export type RedisCommandSender = (args: string[]) => Promise<unknown>;

export interface RedisRedemptionStoreOptions {
  readonly send: RedisCommandSender;
  /** Prefix of every key the store writes. Default `mcp-mrtr:redeemed:`. */
  readonly keyPrefix?: string;
  readonly now?: () => number;
}

/**
 * Single-use records in Redis, shared by every instance: `SET key 1 PX ttl NX` is atomic, so of
 * two instances redeeming the same token at once exactly one wins. Keys expire with their token.
 */
export class RedisRedemptionStore implements RedemptionStore {
  private readonly send: RedisCommandSender;
  private readonly keyPrefix: string;
  private readonly now: () => number;

  constructor(options: RedisRedemptionStoreOptions) {
    this.send = options.send;
    this.keyPrefix = options.keyPrefix ?? 'mcp-mrtr:redeemed:';
    this.now = options.now ?? Date.now;
  }

  async redeem(tokenId: string, expiresAt: number): Promise<boolean> {
    const ttl = Math.max(1, Math.ceil(expiresAt - this.now()));
    const reply = await this.send(['SET', `${this.keyPrefix}${tokenId}`, '1', 'PX', String(ttl), 'NX']);
    return reply === 'OK';
  }
}
