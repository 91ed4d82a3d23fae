import type { LegacyCategory } from './categories.js';
import { legacyMethod } from './legacy-methods.js';

/**
 * Handler registrations that are old-style by themselves: the server answering `logging/setLevel`
 * or tracking `notifications/roots/list_changed`, and a client waiting for
 * `notifications/elicitation/complete`. Handlers for `elicitation/create`, `sampling/createMessage`
 * and `roots/list` are not listed: clients still need them to fulfil MRTR input requests.
 */
export interface LegacyHandler {
  readonly method: string;
  /** Who registers the handler. */
  readonly side: 'server' | 'client';
  readonly category: LegacyCategory;
  readonly guidance: string;
}

function handler(method: string, side: LegacyHandler['side'], guidance?: string): LegacyHandler {
  const entry = legacyMethod(method);
  if (entry === undefined) throw new Error(`${method} is not in the legacy method catalog`);
  return { method, side, category: entry.category, guidance: guidance ?? entry.guidance };
}

export const LEGACY_HANDLERS: readonly LegacyHandler[] = [
  handler('logging/setLevel', 'server'),
  handler('notifications/roots/list_changed', 'server'),
  handler(
    'notifications/elicitation/complete',
    'client',
    'Stop waiting for the notification; retry the original request and let the server say whether the URL-mode step completed.',
  ),
];

export function legacyHandler(method: string): LegacyHandler | undefined {
  return LEGACY_HANDLERS.find((entry) => entry.method === method);
}
