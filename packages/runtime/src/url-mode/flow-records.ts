import { hash, randomBytes } from 'node:crypto';
import { isJsonObject, type JsonObject } from '../protocol.js';

/**
 * The records a URL-mode flow keeps in its {@link UrlFlowStore}, their keys, and the random
 * values that name them. Bearer values (tickets, callback states) are stored under their SHA-256,
 * so whoever reads the store cannot use what it holds.
 */

/** One flow: the out-of-band step one request of one principal waits for. */
export interface FlowRecord {
  readonly principal: string;
  /** `requestDigest` of the request that started the flow. */
  readonly request: string;
  readonly provider: string;
  readonly expiresAt: number;
}

/** A connect ticket: what the connect endpoint checks before it redirects anyone. */
export interface TicketRecord {
  readonly flow: string;
  readonly principal: string;
  readonly provider: string;
  /** The ticket opens until then. */
  readonly expiresAt: number;
  /** The record lives as long as its flow, so a late or repeated visit is told why it is refused. */
  readonly flowExpiresAt: number;
  readonly usedAt?: number;
}

/** What the third party's callback must bring back: the `state` it was sent with. */
export interface CallbackRecord {
  readonly flow: string;
  readonly principal: string;
  readonly provider: string;
  /** PKCE verifier; it never leaves the server except to the provider's token endpoint. */
  readonly codeVerifier: string;
  readonly expiresAt: number;
}

/** How a flow ended, recorded by the callback and read by the handler on the retry. */
export type CompletionRecord =
  | { readonly status: 'completed'; readonly at: number; readonly detail?: JsonObject }
  | { readonly status: 'failed'; readonly at: number; readonly error: string };

/** Random bearer values: 256 bits, base64url. */
export const BEARER_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function randomBearer(): string {
  return randomBytes(32).toString('base64url');
}

/** Flow ids travel in sealed requestState: 128 bits is plenty to keep them from colliding. */
export function randomFlowId(): string {
  return randomBytes(16).toString('base64url');
}

export function sha256(text: string): string {
  return hash('sha256', text, 'base64url');
}

export const recordKeys = {
  flow: (id: string) => `flow:${id}`,
  completion: (id: string) => `done:${id}`,
  ticket: (ticket: string) => `ticket:${sha256(ticket)}`,
  callback: (state: string) => `callback:${sha256(state)}`,
};

function parse(text: string | undefined): JsonObject | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

// A record that does not parse is treated as absent: the store is shared, and a flow that cannot
// be read safely is one the user starts again.

export function parseFlow(text: string | undefined): FlowRecord | undefined {
  const r = parse(text);
  return r && isString(r.principal) && isString(r.request) && isString(r.provider) && isTime(r.expiresAt)
    ? { principal: r.principal, request: r.request, provider: r.provider, expiresAt: r.expiresAt }
    : undefined;
}

export function parseTicket(text: string | undefined): TicketRecord | undefined {
  const r = parse(text);
  if (!r || !isString(r.flow) || !isString(r.principal) || !isString(r.provider)) return undefined;
  if (!isTime(r.expiresAt) || !isTime(r.flowExpiresAt)) return undefined;
  if (r.usedAt !== undefined && !isTime(r.usedAt)) return undefined;
  return {
    flow: r.flow,
    principal: r.principal,
    provider: r.provider,
    expiresAt: r.expiresAt,
    flowExpiresAt: r.flowExpiresAt,
    ...(r.usedAt !== undefined && { usedAt: r.usedAt }),
  };
}

export function parseCallback(text: string | undefined): CallbackRecord | undefined {
  const r = parse(text);
  return r &&
    isString(r.flow) &&
    isString(r.principal) &&
    isString(r.provider) &&
    isString(r.codeVerifier) &&
    isTime(r.expiresAt)
    ? {
        flow: r.flow,
        principal: r.principal,
        provider: r.provider,
        codeVerifier: r.codeVerifier,
        expiresAt: r.expiresAt,
      }
    : undefined;
}

export function parseCompletion(text: string | undefined): CompletionRecord | undefined {
  const r = parse(text);
  if (!r || !isTime(r.at)) return undefined;
  if (r.status === 'completed') {
    if (r.detail !== undefined && !isJsonObject(r.detail)) return undefined;
    return { status: 'completed', at: r.at, ...(r.detail !== undefined && { detail: r.detail }) };
  }
  return r.status === 'failed' && isString(r.error)
    ? { status: 'failed', at: r.at, error: r.error }
    : undefined;
}
