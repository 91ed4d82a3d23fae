import { RedisRedemptionStore, type RedisCommandSender } from '../state/redis-redemption-store.js';
import type { UrlFlowStore } from './url-flow-store.js';

export interface RedisUrlFlowStoreOptions {
  /** The same kind of sender `RedisRedemptionStore` takes, e.g. `(args) => client.sendCommand(args)`. */
  readonly send: RedisCommandSender;
  /** Prefix of every key the store writes. Default `mcp-mrtr:url:`. */
  readonly keyPrefix?: string;
  readonly now?: () => number;
}

/**
 * URL-mode flow records in Redis, shared by every instance. Records are plain `SET … PX` keys that
 * expire with their flow; redemptions are a {@link RedisRedemptionStore} under the same prefix, so
 * of two instances redeeming one ticket at once exactly one wins.
 */
export class RedisUrlFlowStore implements UrlFlowStore {
  private readonly send: RedisCommandSender;
  private readonly keyPrefix: string;
  private readonly now: () => number;
  private readonly redemptions: RedisRedemptionStore;

  constructor(options: RedisUrlFlowStoreOptions) {
    this.send = options.send;
    this.keyPrefix = options.keyPrefix ?? 'mcp-mrtr:url:';
    this.now = options.now ?? Date.now;
    this.redemptions = new RedisRedemptionStore({
      send: options.send,
      keyPrefix: `${this.keyPrefix}redeemed:`,
      ...(options.now && { now: options.now }),
    });
  }

  redeem(id: string, expiresAt: number): Promise<boolean> {
    return this.redemptions.redeem(id, expiresAt);
  }

  async put(key: string, value: string, expiresAt: number): Promise<void> {
    const ttl = Math.max(1, Math.ceil(expiresAt - this.now()));
    await this.send(['SET', `${this.keyPrefix}${key}`, value, 'PX', String(ttl)]);
  }

  async get(key: string): Promise<string | undefined> {
    const reply = await this.send(['GET', `${this.keyPrefix}${key}`]);
    return typeof reply === 'string' ? reply : undefined;
  }
}
