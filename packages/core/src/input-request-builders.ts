import type { InputRequestMethod } from './input-request-capabilities.js';

/**
 * The SDK v2 MRTR builders (`inputRequired.elicit(…)` and friends, exported from
 * `@modelcontextprotocol/server`) and the input request each one builds. Calls to them are the new
 * way and are never push sends, even though `createMessage` shares a name with the old API.
 */
export const INPUT_REQUEST_BUILDER_OBJECT = 'inputRequired';

export const INPUT_REQUEST_BUILDERS: Readonly<Record<string, InputRequestMethod>> = {
  elicit: 'elicitation/create',
  elicitUrl: 'elicitation/create',
  createMessage: 'sampling/createMessage',
  listRoots: 'roots/list',
};

/**
 * Deprecated input requests (sampling and roots) are still valid inside `inputRequests` for the
 * twelve-month deprecation window, so they are reported at a lower severity than push sends.
 */
export const DEPRECATED_INPUT_REQUEST_GUIDANCE: Readonly<Partial<Record<InputRequestMethod, string>>> = {
  'sampling/createMessage':
    "Plan to call an LLM provider's API instead; sampling input requests are deprecated though still valid.",
  'roots/list':
    'Plan to take paths as tool arguments or configuration; roots input requests are deprecated though still valid.',
};
