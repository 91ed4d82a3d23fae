import type { RedemptionStore } from './redemption-store.js';

export interface MemoryRedemptionStoreOptions {
  /** How often expired ids are dropped, at most. Default 30 s. */
  readonly sweepIntervalMs?: number;
  readonly now?: () => number;
}

/** Single-use records for one process. Records live until their token expires. */
export class MemoryRedemptionStore implements RedemptionStore {
  private readonly redeemed = new Map<string, number>();
  private readonly sweepIntervalMs: number;
  private readonly now: () => number;
  private nextSweep: number;

  constructor(options: MemoryRedemptionStoreOptions = {}) {
    this.sweepIntervalMs = options.sweepIntervalMs ?? 30_000;
    this.now = options.now ?? Date.now;
    this.nextSweep = this.now() + this.sweepIntervalMs;
  }

  redeem(tokenId: string, expiresAt: number): Promise<boolean> {
    const now = this.now();
    if (now >= this.nextSweep) this.sweep(now);
    const until = this.redeemed.get(tokenId);
    if (until !== undefined && until > now) return Promise.resolve(false);
    this.redeemed.set(tokenId, expiresAt);
    return Promise.resolve(true);
  }

  /** How many ids are held, expired ones included until the next sweep. */
  get size(): number {
    return this.redeemed.size;
  }

  private sweep(now: number): void {
    for (const [id, until] of this.redeemed) if (until <= now) this.redeemed.delete(id);
    this.nextSweep = now + this.sweepIntervalMs;
  }
}
