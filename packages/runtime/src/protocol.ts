/**
 * The 2026-07-28 wire vocabulary the runtime speaks, typed structurally so the core of the runtime
 * depends on no SDK. Adapters map these shapes onto the SDK types.
 */
import type { InputRequestMethod, MrtrEligibleMethod } from '@mcp-mrtr/core';

export const PROTOCOL_VERSION = '2026-07-28';

export const META_KEYS = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
} as const;

/** JSON-RPC error codes the runtime produces. */
export const ERROR_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  headerMismatch: -32020,
  missingRequiredClientCapability: -32021,
  unsupportedProtocolVersion: -32022,
} as const;

export type JsonObject = Record<string, unknown>;

/** Declared client capabilities, e.g. `{ elicitation: { form: {} }, sampling: {} }`. */
export type ClientCapabilities = JsonObject;

/** A request embedded in `inputRequests`: bare method and params, no JSON-RPC id. */
export interface InputRequest<Method extends InputRequestMethod = InputRequestMethod> {
  readonly method: Method;
  readonly params?: JsonObject;
}

export type InputRequests = Readonly<Record<string, InputRequest>>;

export interface InputRequiredResult {
  readonly resultType: 'input_required';
  readonly inputRequests?: InputRequests;
  readonly requestState?: string;
}

/** A content block of a tool result or prompt message; the runtime passes these through. */
export interface ContentBlock {
  readonly type: string;
  readonly [key: string]: unknown;
}

export interface ToolResult {
  readonly content: readonly ContentBlock[];
  readonly structuredContent?: JsonObject;
  readonly isError?: boolean;
  readonly _meta?: JsonObject;
}

export interface PromptMessage {
  readonly role: 'user' | 'assistant';
  readonly content: ContentBlock;
}

export interface PromptResult {
  readonly description?: string;
  readonly messages: readonly PromptMessage[];
  readonly _meta?: JsonObject;
}

export interface ResourceContents {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text?: string;
  readonly blob?: string;
  readonly [key: string]: unknown;
}

export interface ResourceResult {
  readonly contents: readonly ResourceContents[];
  readonly _meta?: JsonObject;
}

/** What a handler of each MRTR-eligible method completes with. */
export interface CompleteResultByMethod {
  'tools/call': ToolResult;
  'prompts/get': PromptResult;
  'resources/read': ResourceResult;
}

export type CompleteResult = CompleteResultByMethod[MrtrEligibleMethod];

/** `elicitation/create` answer, as the client puts it in `inputResponses`. */
export interface ElicitResult {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: Readonly<Record<string, string | number | boolean | readonly string[]>>;
}

/** `sampling/createMessage` answer. */
export interface SamplingResult {
  readonly role: 'assistant' | 'user';
  readonly content: ContentBlock | readonly ContentBlock[];
  readonly model: string;
  readonly stopReason?: string;
  readonly [key: string]: unknown;
}

export interface Root {
  readonly uri: string;
  readonly name?: string;
}

/** `roots/list` answer. */
export interface RootsResult {
  readonly roots: readonly Root[];
}

export type InputResponse = ElicitResult | SamplingResult | RootsResult;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isInputRequiredResult(value: unknown): value is InputRequiredResult {
  return isJsonObject(value) && value.resultType === 'input_required';
}
