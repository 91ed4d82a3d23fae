import type { RedemptionStore } from '../state/redemption-store.js';

/**
 * Where URL-mode flows live on the server: tickets, flows, callback states and completions as
 * records that expire, and their single-use redemptions through the {@link RedemptionStore}
 * contract. Every instance that serves a retry, the connect endpoint or the callback must share
 * one store (Redis for several instances; memory for one process).
 */
export interface UrlFlowStore extends RedemptionStore {
  /** Writes a record that expires at `expiresAt` (ms since the epoch), replacing any under the key. */
  put(key: string, value: string, expiresAt: number): Promise<void>;
  /** The record under the key, or undefined when there is none or it expired. */
  get(key: string): Promise<string | undefined>;
}
