import type { LegacyCategory } from './categories.js';

/** A JSON-RPC method whose old-style use the 2026-07-28 revision removes or deprecates. */
export interface LegacyMethod {
  readonly method: string;
  readonly kind: 'request' | 'notification';
  /** Who sends it: server-initiated sends are what MRTR replaces. */
  readonly direction: 'server-to-client' | 'client-to-server';
  readonly category: LegacyCategory;
  /** One sentence: what to do instead. */
  readonly guidance: string;
}

export const LEGACY_METHODS = [
  {
    method: 'elicitation/create',
    kind: 'request',
    direction: 'server-to-client',
    category: 'elicitation',
    guidance:
      'Return an input_required result with this request in inputRequests and read the answer from inputResponses when the client retries.',
  },
  {
    method: 'sampling/createMessage',
    kind: 'request',
    direction: 'server-to-client',
    category: 'sampling',
    guidance: "Call an LLM provider's API from the server instead of asking the client's model.",
  },
  {
    method: 'roots/list',
    kind: 'request',
    direction: 'server-to-client',
    category: 'roots',
    guidance: 'Take the working directory or files as tool arguments, resource URIs or server configuration.',
  },
  {
    method: 'notifications/message',
    kind: 'notification',
    direction: 'server-to-client',
    category: 'logging',
    guidance: 'Write the log record to stderr (stdio servers) or emit it through OpenTelemetry.',
  },
  {
    method: 'notifications/elicitation/complete',
    kind: 'notification',
    direction: 'server-to-client',
    category: 'elicitation-complete',
    guidance:
      'Remove the notification; on the retry, decide from server-side state whether the URL-mode step completed.',
  },
  {
    method: 'logging/setLevel',
    kind: 'request',
    direction: 'client-to-server',
    category: 'logging',
    guidance:
      'Remove the handler: 2026-07-28 has no logging/setLevel, and logs go to stderr or OpenTelemetry.',
  },
  {
    method: 'notifications/roots/list_changed',
    kind: 'notification',
    direction: 'client-to-server',
    category: 'roots',
    guidance:
      'Remove the handler; read paths from tool arguments or configuration instead of tracking client roots.',
  },
] as const satisfies readonly LegacyMethod[];

export type LegacyMethodName = (typeof LEGACY_METHODS)[number]['method'];

const byMethod: ReadonlyMap<string, LegacyMethod> = new Map(
  LEGACY_METHODS.map((entry) => [entry.method, entry]),
);

/** The catalog entry for a method string, or undefined when the method is not legacy. */
export function legacyMethod(method: string): LegacyMethod | undefined {
  return byMethod.get(method);
}
