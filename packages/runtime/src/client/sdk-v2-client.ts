import type { MrtrEligibleMethod } from '@mcp-mrtr/core';
import type { JsonObject } from '../protocol.js';
import { callWithInput, type AttemptSender, type CallWithInputOptions } from './call-with-input.js';

/** The part of an SDK v2 `Client` the retry loop uses (its manual multi-round-trip mode). */
export interface SdkV2ClientLike {
  request(
    request: { method: MrtrEligibleMethod; params?: Record<string, unknown> },
    options?: { allowInputRequired?: boolean; signal?: AbortSignal },
  ): Promise<unknown>;
}

/**
 * Sends each attempt through an SDK v2 `Client` (connected on the 2026-07-28 era) with
 * `allowInputRequired`, so input_required results come back to the loop instead of the SDK's own
 * driver. The SDK gives every attempt a new id.
 */
export function sdkV2Sender(client: SdkV2ClientLike, method: MrtrEligibleMethod): AttemptSender {
  return (params, signal) =>
    client.request({ method, params }, { allowInputRequired: true, ...(signal && { signal }) });
}

/** `tools/call` on an SDK v2 `Client` through the MRTR retry loop. */
export function callToolWithInput(
  client: SdkV2ClientLike,
  name: string,
  args: JsonObject,
  options: CallWithInputOptions,
): Promise<JsonObject> {
  return callWithInput(sdkV2Sender(client, 'tools/call'), { name, arguments: args }, options);
}
