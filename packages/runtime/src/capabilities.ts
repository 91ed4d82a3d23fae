import { clientHasCapability, requiredClientCapability } from '@mcp-mrtr/core';
import { MissingClientCapabilityError } from './errors.js';
import { isJsonObject, type ClientCapabilities, type InputRequests, type JsonObject } from './protocol.js';

/**
 * What to do with input requests the client declared no capability for:
 * - `require`: answer `-32021` with `requiredCapabilities` (the default);
 * - `filter`: drop them and ask only for what the client can serve.
 */
export type UnsupportedInputPolicy = 'require' | 'filter';

export function clientSupports(
  declared: ClientCapabilities | undefined,
  request: InputRequests[string],
): boolean {
  const needed = requiredClientCapability(request);
  return needed !== undefined && clientHasCapability(declared, needed);
}

/** The requests the client can serve, in their original order. */
export function supportedInputRequests(
  requests: InputRequests,
  declared: ClientCapabilities | undefined,
): Record<string, InputRequests[string]> {
  return Object.fromEntries(
    Object.entries(requests).filter(([, request]) => clientSupports(declared, request)),
  );
}

function merge(into: JsonObject, from: JsonObject): void {
  for (const [key, value] of Object.entries(from)) {
    const existing = into[key];
    if (isJsonObject(existing) && isJsonObject(value)) merge(existing, value);
    else into[key] = structuredClone(value);
  }
}

/**
 * Throws `-32021` naming every capability the requests need and the client did not declare, as one
 * merged `requiredCapabilities` object (`{ elicitation: { url: {} }, sampling: {} }`).
 */
export function requireClientCapabilities(
  requests: InputRequests,
  declared: ClientCapabilities | undefined,
): void {
  const required: JsonObject = {};
  const keys: string[] = [];
  for (const [key, request] of Object.entries(requests)) {
    const needed = requiredClientCapability(request);
    if (needed && !clientHasCapability(declared, needed)) {
      merge(required, needed.capabilities);
      keys.push(`"${key}" (${request.method}) needs ${needed.path.join('.')}`);
    }
  }
  if (keys.length > 0) throw new MissingClientCapabilityError(required, keys.join('; '));
}
