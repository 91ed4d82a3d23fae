import {
  MemoryRedemptionStore,
  type MemoryRedemptionStoreOptions,
} from '../state/memory-redemption-store.js';
import type { UrlFlowStore } from './url-flow-store.js';

interface StoredRecord {
  readonly value: string;
  readonly expiresAt: number;
}

/** URL-mode flow records for one process; redemptions go to a {@link MemoryRedemptionStore}. */
export class MemoryUrlFlowStore implements UrlFlowStore {
  private readonly records = new Map<string, StoredRecord>();
  private readonly redemptions: MemoryRedemptionStore;
  private readonly sweepIntervalMs: number;
  private readonly now: () => number;
  private nextSweep: number;

  constructor(options: MemoryRedemptionStoreOptions = {}) {
    this.redemptions = new MemoryRedemptionStore(options);
    this.sweepIntervalMs = options.sweepIntervalMs ?? 30_000;
    this.now = options.now ?? Date.now;
    this.nextSweep = this.now() + this.sweepIntervalMs;
  }

  redeem(id: string, expiresAt: number): Promise<boolean> {
    return this.redemptions.redeem(id, expiresAt);
  }

  put(key: string, value: string, expiresAt: number): Promise<void> {
    const now = this.now();
    if (now >= this.nextSweep) this.sweep(now);
    this.records.set(key, { value, expiresAt });
    return Promise.resolve();
  }

  get(key: string): Promise<string | undefined> {
    const record = this.records.get(key);
    return Promise.resolve(record && record.expiresAt > this.now() ? record.value : undefined);
  }

  /** How many records are held, expired ones included until the next sweep. */
  get size(): number {
    return this.records.size;
  }

  private sweep(now: number): void {
    for (const [key, record] of this.records) if (record.expiresAt <= now) this.records.delete(key);
    this.nextSweep = now + this.sweepIntervalMs;
  }
}
