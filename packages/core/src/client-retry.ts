/**
 * The client's half of MRTR: a client retries an MRTR-eligible request with a new JSON-RPC id,
 * echoes the `requestState` it received byte for byte (and only when it received one), and learns
 * whether a URL-mode step finished from the retry, never from `notifications/elicitation/complete`.
 */

import { isMrtrEligibleMethod } from './eligible-methods.js';

/**
 * Client methods that send an MRTR-eligible request and resolve with its result: the SDK clients'
 * generic `request` (checked for an eligible method) and their `callTool` / `getPrompt` /
 * `readResource`, which the runtime's clients share.
 */
export const CLIENT_REQUEST_CALLS: Readonly<Record<string, string | undefined>> = {
  request: undefined,
  callTool: 'tools/call',
  getPrompt: 'prompts/get',
  readResource: 'resources/read',
};

/**
 * The MRTR-eligible method a client call sends, or undefined when it sends none: the one decision
 * behind "this is a client result, so its `requestState` was received", made from what syntax
 * shows by the lint (ESTree) and the codemod (TypeScript's tree) alike. `member` is the method
 * called on the client; `givenMethod` the static method string it is given (its first argument,
 * or that argument's `method` property), when there is one.
 */
export function clientRequestMethod(member: string, givenMethod: string | undefined): string | undefined {
  if (!Object.hasOwn(CLIENT_REQUEST_CALLS, member)) return undefined;
  const fixed = CLIENT_REQUEST_CALLS[member];
  if (fixed !== undefined) return fixed;
  return givenMethod !== undefined && isMrtrEligibleMethod(givenMethod) ? givenMethod : undefined;
}

/** The property of a client result that holds the state the server sent. */
export const RECEIVED_REQUEST_STATE_PROPERTY = 'requestState';

/** Calls that decode or parse a string: applying one to a received requestState inspects it. */
export const REQUEST_STATE_DECODERS: readonly string[] = [
  'JSON.parse',
  'atob',
  'Buffer.from',
  'decodeURIComponent',
  'decodeURI',
  'jwt.decode',
  'jwt.verify',
  'decodeJwt',
  'jwtDecode',
  'decodeProtectedHeader',
  'TextDecoder',
];

/**
 * String methods that only observe a value without changing what is sent; every other method
 * called on a received requestState (`split`, `slice`, `replace`, …) takes it apart or changes it.
 */
export const REQUEST_STATE_OBSERVERS: readonly string[] = ['toString', 'valueOf', 'trim', 'length'];

export const ELICITATION_COMPLETE_METHOD = 'notifications/elicitation/complete';

/**
 * The field 2025 URL-mode elicitations carried to match a later completion notification; the
 * 2026-07-28 URL mode has none, so a client that waits on it waits forever.
 */
export const ELICITATION_ID_FIELD = 'elicitationId';

export const ELICITATION_COMPLETE_GUIDANCE =
  'After the user consents, retry the original request: the server says whether the URL-mode step completed (its result) or not yet (input_required again).';

export const REQUEST_STATE_INSPECTION_GUIDANCE =
  'requestState is opaque: attach the string the server sent, unchanged, to the retry and nothing else.';

export const FABRICATED_REQUEST_STATE_GUIDANCE =
  'Attach requestState only when the server sent one, exactly as sent: `...(requestState !== undefined && { requestState })`.';

export const REUSED_RETRY_ID_GUIDANCE =
  'Give every attempt a fresh JSON-RPC id (a counter, or let the SDK’s request() assign one).';
