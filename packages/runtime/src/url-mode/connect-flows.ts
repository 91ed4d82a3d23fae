import { checkElicitationUrl } from '@mcp-mrtr/core';
import { MrtrUsageError, RequestStateError, RuntimeConfigError } from '../errors.js';
import { elicitUrl, type UrlRequest } from '../input/input-request-builders.js';
import { ANONYMOUS_PRINCIPAL } from '../principal.js';
import { isJsonObject, type JsonObject } from '../protocol.js';
import type { Round } from '../round.js';
import { requestDigest } from '../state/request-identity.js';
import { findSecretNames } from '../state/secret-names.js';
import type { ConnectEvent, ConnectRefusal } from './connect-events.js';
import type { ConnectProvider } from './connect-provider.js';
import {
  BEARER_PATTERN,
  parseCallback,
  parseCompletion,
  parseFlow,
  parseTicket,
  randomBearer,
  randomFlowId,
  recordKeys,
  sha256,
  type CompletionRecord,
  type FlowRecord,
  type TicketRecord,
} from './flow-records.js';
import type { UrlFlowStore } from './url-flow-store.js';

export interface ConnectFlowsOptions {
  readonly store: UrlFlowStore;
  /** Public URL of your connect endpoint; tickets go into its `ticket` query parameter. */
  readonly connectUrl: string | URL;
  /** Public URL third parties redirect back to. Default: `<connectUrl>/callback`. */
  readonly callbackUrl?: string | URL;
  /** The third parties users connect to, by name. */
  readonly providers: Readonly<Record<string, ConnectProvider>>;
  /** How long a ticket can be opened. Default 300 s. */
  readonly ticketTtlSeconds?: number;
  /**
   * How long a user has to finish, from the flow's start. Default 900 s. Give the runtime's
   * requestState a `ttlSeconds` at least this long, or a slow user's retry is refused.
   */
  readonly flowTtlSeconds?: number;
  /** The server's audit log of flows, refusals included. */
  readonly onEvent?: (event: ConnectEvent) => void;
  readonly now?: () => number;
}

/** What a handler carries in its requestState between rounds of a flow. */
export interface ConnectFlowRef {
  readonly id: string;
  /** The ticket in the URL the client was shown, so a retry can show the same URL again. */
  readonly ticket: string;
}

export interface ConnectStepSpec {
  /** The inputRequests key of the URL request, the same on every round. */
  readonly key: string;
  /** Which of the configured providers to connect to. */
  readonly provider: string;
  /** Why the user should open the link, shown by the client. */
  readonly message: string;
  /** The reference the previous round sealed into its state; undefined on the first round. */
  readonly flow: ConnectFlowRef | undefined;
}

/** Where a flow stands on this round. */
export type ConnectStep =
  /** The callback recorded completion; whatever it obtained is on the server, keyed by principal. */
  | { readonly status: 'completed'; readonly flow: ConnectFlowRef; readonly detail: JsonObject | undefined }
  /** Not finished: return `inputRequests` and carry `flow` in the state. */
  | {
      readonly status: 'pending';
      readonly flow: ConnectFlowRef;
      readonly request: UrlRequest;
      readonly inputRequests: Readonly<Record<string, UrlRequest>>;
    }
  /** The user declined or dismissed the link in the client. */
  | { readonly status: 'declined' | 'cancelled'; readonly flow: ConnectFlowRef }
  /** The third party refused (`access_denied`) or the exchange failed. Start again with `flow: undefined`. */
  | { readonly status: 'failed'; readonly flow: ConnectFlowRef; readonly error: string }
  /** The client declared no URL-mode elicitation: it cannot be sent a link. */
  | { readonly status: 'unsupported' };

/** What the connect endpoint does with a ticket. */
export type TicketDecision =
  | { readonly outcome: 'redirect'; readonly location: string }
  | { readonly outcome: 'refused'; readonly reason: ConnectRefusal };

/** What the callback did. */
export type CallbackDecision =
  | { readonly outcome: 'completed' }
  | { readonly outcome: 'failed'; readonly error: string }
  | { readonly outcome: 'refused'; readonly reason: ConnectRefusal };

const ERROR_CODE = /^[A-Za-z0-9_.-]{1,64}$/;
/** The error of a flow whose callback came back refused (wrong user, no session). */
const CALLBACK_REFUSED = 'callback_refused';
const URL_ELICITATION = { method: 'elicitation/create', params: { mode: 'url' } } as const;

function seconds(value: number | undefined, fallback: number, name: string): number {
  const chosen = value ?? fallback;
  if (!Number.isFinite(chosen) || chosen <= 0) {
    throw new RuntimeConfigError(`${name} must be a positive number of seconds, not ${chosen}.`);
  }
  return chosen * 1000;
}

function checkPublicUrl(url: URL, name: string): void {
  const [problem] = checkElicitationUrl(url.href);
  if (problem) throw new RuntimeConfigError(`${name}: ${problem.message}`);
  if (url.search !== '' || url.hash !== '') {
    throw new RuntimeConfigError(`${name} must have no query or fragment: ${url.href}`);
  }
}

function isFlowRef(value: unknown): value is ConnectFlowRef {
  return (
    isJsonObject(value) &&
    typeof value.id === 'string' &&
    typeof value.ticket === 'string' &&
    BEARER_PATTERN.test(value.ticket)
  );
}

/**
 * URL-mode flows done safely: instead of a third party's authorization URL, a handler hands out
 * the server's own connect URL with an opaque, single-use, short-lived ticket, stored server-side
 * and bound to the principal and the request. The connect endpoint lets only that principal's
 * session through to the third party; the callback records completion against the flow; the
 * handler learns on the retry whether the step finished. Whatever the third party issues stays on
 * the server.
 */
export class ConnectFlows {
  readonly connectUrl: URL;
  readonly callbackUrl: URL;
  private readonly store: UrlFlowStore;
  private readonly providers: Readonly<Record<string, ConnectProvider>>;
  private readonly ticketTtlMs: number;
  private readonly flowTtlMs: number;
  private readonly onEvent: (event: ConnectEvent) => void;
  private readonly now: () => number;

  constructor(options: ConnectFlowsOptions) {
    this.store = options.store;
    this.providers = options.providers;
    this.connectUrl = new URL(options.connectUrl);
    checkPublicUrl(this.connectUrl, 'connectUrl');
    this.callbackUrl = new URL(options.callbackUrl ?? `${this.connectUrl.href.replace(/\/$/, '')}/callback`);
    checkPublicUrl(this.callbackUrl, 'callbackUrl');
    if (Object.keys(options.providers).length === 0) {
      throw new RuntimeConfigError('ConnectFlows needs at least one provider.');
    }
    this.ticketTtlMs = seconds(options.ticketTtlSeconds, 300, 'ticketTtlSeconds');
    this.flowTtlMs = seconds(options.flowTtlSeconds, 900, 'flowTtlSeconds');
    if (this.ticketTtlMs > this.flowTtlMs) {
      throw new RuntimeConfigError('ticketTtlSeconds must not be longer than flowTtlSeconds.');
    }
    this.onEvent = options.onEvent ?? (() => undefined);
    this.now = options.now ?? Date.now;
  }

  /**
   * One round of a handler that needs the out-of-band step. `accept` alone never completes it:
   * only the callback does. Throws `RequestStateError` when the flow belongs to another principal
   * or request, and `MrtrUsageError` when the request has no authenticated principal.
   */
  async step<State>(round: Round<State>, spec: ConnectStepSpec): Promise<ConnectStep> {
    if (round.principal === ANONYMOUS_PRINCIPAL) {
      throw new MrtrUsageError(
        'URL-mode connect flows need an authenticated principal to bind tickets to; configure `principal` on the adapter or listener.',
      );
    }
    this.provider(spec.provider);
    if (!round.supports(URL_ELICITATION)) return { status: 'unsupported' };
    if (spec.flow === undefined) return this.start(round, spec);
    if (!isFlowRef(spec.flow))
      throw new MrtrUsageError('spec.flow is not a flow reference this runtime made.');

    const ref = spec.flow;
    const now = this.now();
    const stored = parseFlow(await this.store.get(recordKeys.flow(ref.id)));
    const flow = stored && stored.expiresAt > now ? stored : undefined;
    if (flow && flow.principal !== round.principal) {
      throw new RequestStateError('principal', `connect flow ${ref.id} belongs to another principal`);
    }
    if (flow && (flow.request !== requestDigest(round.request) || flow.provider !== spec.provider)) {
      throw new RequestStateError('request', `connect flow ${ref.id} belongs to another request`);
    }
    const answer = round.urlElicitation(spec.key);
    if (answer?.action === 'decline') return { status: 'declined', flow: ref };
    if (answer?.action === 'cancel') return { status: 'cancelled', flow: ref };
    if (!flow) {
      const restarted = await this.start(round, spec);
      this.onEvent({ type: 'flow-restarted', flow: restarted.flow.id, principal: round.principal });
      return restarted;
    }

    const done = parseCompletion(await this.store.get(recordKeys.completion(ref.id)));
    if (done?.status === 'completed') return { status: 'completed', flow: ref, detail: done.detail };
    if (done?.status === 'failed') return { status: 'failed', flow: ref, error: done.error };

    // Not finished: show the same URL while its ticket can still be opened, a fresh one otherwise.
    const ticket = parseTicket(await this.store.get(recordKeys.ticket(ref.ticket)));
    const reusable = ticket !== undefined && ticket.usedAt === undefined && ticket.expiresAt > now;
    const current = reusable ? ref : { id: ref.id, ticket: await this.issueTicket(ref.id, flow) };
    return this.pending(spec, current);
  }

  /**
   * The connect endpoint's decision for a ticket and the principal of the browser's session on
   * this server. Only the ticket's own principal is redirected, once; a wrong user or a signed-out
   * visit leaves the ticket usable for its owner.
   */
  async openTicket(ticket: string | null, sessionPrincipal: string | undefined): Promise<TicketDecision> {
    const refuse = (reason: ConnectRefusal, record?: TicketRecord): TicketDecision => {
      this.onEvent({
        type: 'ticket-refused',
        reason,
        ...(record && { flow: record.flow, principal: record.principal }),
        ...(sessionPrincipal !== undefined && sessionPrincipal !== record?.principal && { sessionPrincipal }),
      });
      return { outcome: 'refused', reason };
    };
    if (ticket === null || !BEARER_PATTERN.test(ticket)) return refuse('malformed');
    const key = recordKeys.ticket(ticket);
    const record = parseTicket(await this.store.get(key));
    const now = this.now();
    if (!record) return refuse('unknown');
    if (record.expiresAt <= now) return refuse('expired', record);
    if (record.usedAt !== undefined) return refuse('used', record);
    if (sessionPrincipal === undefined) return refuse('signed-out', record);
    if (sessionPrincipal !== record.principal) return refuse('wrong-user', record);
    // Redeemed only now: a stranger or a signed-out visit must not burn the owner's ticket.
    if (!(await this.store.redeem(key, record.flowExpiresAt))) return refuse('used', record);
    await this.store.put(key, JSON.stringify({ ...record, usedAt: now }), record.flowExpiresAt);

    const state = randomBearer();
    const codeVerifier = randomBearer();
    await this.store.put(
      recordKeys.callback(state),
      JSON.stringify({
        flow: record.flow,
        principal: record.principal,
        provider: record.provider,
        codeVerifier,
        expiresAt: record.flowExpiresAt,
      }),
      record.flowExpiresAt,
    );
    const location = new URL(
      await this.provider(record.provider).authorizationUrl({
        state,
        redirectUri: this.callbackUrl.href,
        codeChallenge: sha256(codeVerifier),
        codeChallengeMethod: 'S256',
        principal: record.principal,
        flow: record.flow,
      }),
    );
    if (location.protocol !== 'https:' && location.protocol !== 'http:') {
      throw new RuntimeConfigError(`Provider "${record.provider}" gave a non-web authorization URL.`);
    }
    this.onEvent({
      type: 'redirected',
      flow: record.flow,
      principal: record.principal,
      provider: record.provider,
    });
    return { outcome: 'redirect', location: location.href };
  }

  /**
   * The callback's decision: the state must be one this server issued, unused and unexpired, and
   * the browser's session must be the flow's principal (a forwarded authorization URL completes
   * in someone else's browser and is refused). Then the provider finishes and completion is
   * recorded for the handler's next round. The state is used up whatever the decision, and a
   * callback refused for its session fails the flow (`callback_refused`), so the URL, which
   * carries the third party's code, can never complete a flow later, in any session.
   */
  async finishCallback(
    params: URLSearchParams,
    sessionPrincipal: string | undefined,
    signal: AbortSignal = new AbortController().signal,
  ): Promise<CallbackDecision> {
    const state = params.get('state');
    const refuse = (reason: ConnectRefusal, principal?: string, flow?: string): CallbackDecision => {
      this.onEvent({
        type: 'callback-refused',
        reason,
        ...(flow !== undefined && { flow }),
        ...(principal !== undefined && { principal }),
        ...(sessionPrincipal !== undefined && sessionPrincipal !== principal && { sessionPrincipal }),
      });
      return { outcome: 'refused', reason };
    };
    if (state === null || !BEARER_PATTERN.test(state)) return refuse('malformed');
    const key = recordKeys.callback(state);
    const record = parseCallback(await this.store.get(key));
    if (!record) return refuse('unknown');
    const who = { flow: record.flow, principal: record.principal, provider: record.provider };
    const fail = async (error: string, cause?: unknown): Promise<CallbackDecision> => {
      await this.record(record.flow, { status: 'failed', at: this.now(), error }, record.expiresAt);
      this.onEvent({ type: 'failed', ...who, error, ...(cause !== undefined && { cause }) });
      return { outcome: 'failed', error };
    };
    // The state is redeemed before any check: a refused callback still carries the third party's
    // code, and must never be redeemable later, in the owner's session or anyone's.
    if (!(await this.store.redeem(key, record.expiresAt)))
      return refuse('used', record.principal, record.flow);
    let refusal: ConnectRefusal | undefined;
    if (record.expiresAt <= this.now()) refusal = 'expired';
    else if (sessionPrincipal === undefined) refusal = 'signed-out';
    else if (sessionPrincipal !== record.principal) refusal = 'wrong-user';
    if (refusal !== undefined) {
      const decision = refuse(refusal, record.principal, record.flow);
      // The flow goes with its state: the owner's retry reports it failed, and they start again.
      if (refusal !== 'expired') await fail(CALLBACK_REFUSED);
      return decision;
    }
    const providerError = params.get('error');
    if (providerError !== null) return fail(ERROR_CODE.test(providerError) ? providerError : 'error');

    let detail: unknown;
    try {
      detail = await this.provider(record.provider).complete({
        principal: record.principal,
        flow: record.flow,
        params,
        redirectUri: this.callbackUrl.href,
        codeVerifier: record.codeVerifier,
        signal,
      });
    } catch (error) {
      return fail('exchange_failed', error);
    }
    if (detail !== undefined && !isJsonObject(detail)) {
      return fail(
        'invalid_detail',
        new MrtrUsageError('A provider must resolve with nothing or a JSON object.'),
      );
    }
    const secrets = detail === undefined ? [] : findSecretNames(detail);
    if (secrets.length > 0) {
      return fail(
        'invalid_detail',
        new MrtrUsageError(
          `Provider "${record.provider}" returned secret-named detail (${secrets.map((hit) => hit.path).join(', ')}); keep credentials on the server.`,
        ),
      );
    }
    await this.record(
      record.flow,
      { status: 'completed', at: this.now(), ...(detail !== undefined && { detail }) },
      record.expiresAt,
    );
    this.onEvent({ type: 'completed', ...who });
    return { outcome: 'completed' };
  }

  private provider(name: string): ConnectProvider {
    const provider = Object.hasOwn(this.providers, name) ? this.providers[name] : undefined;
    if (!provider) throw new MrtrUsageError(`No connect provider named "${name}" is configured.`);
    return provider;
  }

  private async start<State>(
    round: Round<State>,
    spec: ConnectStepSpec,
  ): Promise<Extract<ConnectStep, { status: 'pending' }>> {
    const id = randomFlowId();
    const flow: FlowRecord = {
      principal: round.principal,
      request: requestDigest(round.request),
      provider: spec.provider,
      expiresAt: this.now() + this.flowTtlMs,
    };
    await this.store.put(recordKeys.flow(id), JSON.stringify(flow), flow.expiresAt);
    this.onEvent({ type: 'flow-started', flow: id, principal: flow.principal, provider: flow.provider });
    return this.pending(spec, { id, ticket: await this.issueTicket(id, flow) });
  }

  private async issueTicket(id: string, flow: FlowRecord): Promise<string> {
    const ticket = randomBearer();
    const record: TicketRecord = {
      flow: id,
      principal: flow.principal,
      provider: flow.provider,
      expiresAt: Math.min(this.now() + this.ticketTtlMs, flow.expiresAt),
      flowExpiresAt: flow.expiresAt,
    };
    await this.store.put(recordKeys.ticket(ticket), JSON.stringify(record), flow.expiresAt);
    this.onEvent({ type: 'ticket-issued', flow: id, principal: flow.principal, provider: flow.provider });
    return ticket;
  }

  private pending(spec: ConnectStepSpec, flow: ConnectFlowRef): Extract<ConnectStep, { status: 'pending' }> {
    const url = new URL(this.connectUrl);
    url.searchParams.set('ticket', flow.ticket);
    const request = elicitUrl({ message: spec.message, url: url.href });
    return { status: 'pending', flow, request, inputRequests: { [spec.key]: request } };
  }

  private record(flow: string, completion: CompletionRecord, expiresAt: number): Promise<void> {
    return this.store.put(recordKeys.completion(flow), JSON.stringify(completion), expiresAt);
  }
}
