import type { JsonObject } from '../protocol.js';

/** What the connect endpoint hands a provider once it has checked who opened the ticket. */
export interface AuthorizationRequest {
  /** The OAuth `state`: single use, bound to this principal and flow, checked on the callback. */
  readonly state: string;
  /** Where the third party must send the user back: the connect endpoint's callback. */
  readonly redirectUri: string;
  /** PKCE (RFC 7636): the verifier stays on the server until the code is exchanged. */
  readonly codeChallenge: string;
  readonly codeChallengeMethod: 'S256';
  /** The principal the flow belongs to, who is also the one whose session opened the ticket. */
  readonly principal: string;
  readonly flow: string;
}

/** The third party's redirect back to the callback, after the state and the session checked out. */
export interface ProviderCallback {
  readonly principal: string;
  readonly flow: string;
  /** The callback's query: `code`, and whatever else the provider sends. */
  readonly params: URLSearchParams;
  readonly redirectUri: string;
  readonly codeVerifier: string;
  readonly signal: AbortSignal;
}

/**
 * One third party a server connects users to (an OAuth authorization server, or a page of your
 * own that collects an API key). The connect endpoint calls {@link authorizationUrl} only for the
 * user the ticket was issued to, and {@link complete} only for that same user's callback.
 */
export interface ConnectProvider {
  /** The URL to send the user to, carrying `state`, `redirectUri` and the PKCE challenge. */
  authorizationUrl(request: AuthorizationRequest): string | URL | Promise<string | URL>;
  /**
   * Finishes the flow: exchange the code and store what you obtained on the server, keyed by
   * `principal`. Never return tokens: resolve with nothing, or with non-secret detail for the
   * handler (an account name). Throwing marks the flow failed.
   */
  complete(
    callback: ProviderCallback,
  ): Promise<JsonObject | undefined | void> | JsonObject | undefined | void;
}
