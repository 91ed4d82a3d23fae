import type { InputRequestMethod } from './input-request-capabilities.js';

/**
 * The MRTR API that detection recognises as the new, correct way: the SDK v2 helpers exported by
 * `@modelcontextprotocol/server` and this project's runtime (`@mcp-mrtr/runtime`). Every name here
 * is checked against the published SDK and the runtime's exports by tests, so a rename fails CI.
 */

export const RUNTIME_PACKAGE = '@mcp-mrtr/runtime';

/** Whether an import specifier names the runtime or one of its entry points (`@mcp-mrtr/runtime/http`). */
export function isRuntimeModule(specifier: string): boolean {
  return specifier === RUNTIME_PACKAGE || specifier.startsWith(`${RUNTIME_PACKAGE}/`);
}

export type ElicitationMode = 'form' | 'url';

/** What an input-request builder builds. */
export interface InputRequestBuilder {
  readonly method: InputRequestMethod;
  /** For elicitation: the mode the builder sets. */
  readonly mode?: ElicitationMode;
}

/** `inputRequired.elicit(…)` and friends (SDK v2), by member name. */
export const SDK_INPUT_REQUEST_BUILDERS: Readonly<Record<string, InputRequestBuilder>> = {
  elicit: { method: 'elicitation/create', mode: 'form' },
  elicitUrl: { method: 'elicitation/create', mode: 'url' },
  createMessage: { method: 'sampling/createMessage' },
  listRoots: { method: 'roots/list' },
};

/** The runtime's standalone builders (`elicitForm(…)`, `elicitUrl(…)`, …), by exported name. */
export const RUNTIME_INPUT_REQUEST_BUILDERS: Readonly<Record<string, InputRequestBuilder>> = {
  elicitForm: { method: 'elicitation/create', mode: 'form' },
  elicitUrl: { method: 'elicitation/create', mode: 'url' },
  createMessage: { method: 'sampling/createMessage' },
  listRoots: { method: 'roots/list' },
};

/**
 * `round.inputRequired({ inputRequests, state, unsupported })`: the runtime's result builder. It
 * seals `state`, and checks each request against the client's declared capabilities (answering
 * `-32021`, or dropping unsupported requests with `unsupported: 'filter'`).
 */
export const ROUND_INPUT_REQUIRED_METHOD = 'inputRequired';
/** The property of `round.inputRequired(…)` that the runtime seals into requestState. */
export const ROUND_STATE_PROPERTY = 'state';

/**
 * The runtime's plain-HTTP definitions (`defineTool({ handler })`, …) and the request each
 * `handler` answers.
 */
export const RUNTIME_HANDLER_DEFINITIONS: Readonly<Record<string, string>> = {
  defineTool: 'tools/call',
  definePrompt: 'prompts/get',
  defineResource: 'resources/read',
};

/**
 * Calls that check the client's declared capabilities: the runtime's `round.supports(request)`
 * and helpers, core's, and the SDK's `getClientCapabilities()`.
 */
export const CAPABILITY_CHECK_CALLS: readonly string[] = [
  'supports',
  'clientSupports',
  'supportedInputRequests',
  'requireClientCapabilities',
  'clientHasCapability',
  'requiredClientCapability',
  'getClientCapabilities',
];

/**
 * Names whose use shows a handler reads the client's capabilities: the runtime's
 * `round.clientCapabilities`, SDK v2's `CLIENT_CAPABILITIES_META_KEY` for `ctx.mcpReq.envelope`, the
 * `_meta` key itself, and the errors that refuse a request for a missing capability.
 */
export const CAPABILITY_REFERENCES: readonly string[] = [
  'clientCapabilities',
  'CLIENT_CAPABILITIES_META_KEY',
  'io.modelcontextprotocol/clientCapabilities',
  'MissingRequiredClientCapabilityError',
  'MissingClientCapabilityError',
];

/**
 * `await round.ask(key, request)`: journaled replay's question. It resolves with the answer to
 * `request`, so an ask of a URL-mode request (`elicitUrl(…)`) reads a URL answer.
 */
export const ROUND_ASK_METHOD = 'ask';

/**
 * `await round.step(key, fn)`: journaled replay's once-per-call step. What it does is what `fn`
 * does; its result is `fn`'s, replayed on later rounds.
 */
export const ROUND_STEP_METHOD = 'step';

/** `round.urlElicitation(key)`: the runtime's reader of a URL-mode answer (an `action` only). */
export const URL_ANSWER_READERS: readonly string[] = ['urlElicitation'];

/** Readers that take the responses and a key: SDK v2's `inputResponse(…)` and `acceptedContent(…)`. */
export const KEYED_ANSWER_READERS: readonly string[] = ['inputResponse', 'acceptedContent'];

/**
 * The runtime's round classes, the type of a journaled handler's `round` parameter: `Round` from
 * `@mcp-mrtr/runtime`, and the SDK adapters' `SdkV1Round` and `SdkV2Round`.
 */
export const RUNTIME_ROUND_TYPES: readonly string[] = ['Round', 'SdkV1Round', 'SdkV2Round'];

/** The runtime's handler types (`const deploy: ToolHandler<…> = (args, round) => …`); the second parameter is the round. */
export const RUNTIME_HANDLER_TYPES: readonly string[] = ['ToolHandler', 'PromptHandler', 'ResourceHandler'];

/**
 * The SDK adapters' low-level `requestHandler(server, method, handler)`: `handler` receives the
 * whole request and a round, as a registration callback does.
 */
export const ADAPTER_REQUEST_HANDLER_METHOD = 'requestHandler';

/**
 * `isSuspension(error)`: whether an error is the runtime's `Suspension`, the signal a journaled
 * handler unwinds with while a question waits for its answer; a `catch` must rethrow it.
 */
export const SUSPENSION_TEST = 'isSuspension';
export const SUSPENSION_CLASS = 'Suspension';
