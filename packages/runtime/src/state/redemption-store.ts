/**
 * Where single-use requestState tokens are recorded as redeemed. Every instance that may see a
 * retry must share one store (Redis for several instances; memory for one process).
 */
export interface RedemptionStore {
  /**
   * Records a token id as redeemed until `expiresAt` (ms since the epoch). Resolves `true` the
   * first time an id is redeemed and `false` on every later attempt. Must be atomic.
   */
  redeem(tokenId: string, expiresAt: number): Promise<boolean>;
}
