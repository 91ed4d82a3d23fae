import type { CallbackDecision, ConnectFlows, TicketDecision } from './connect-flows.js';
import { completedPage, failedPage, refusalPage, renderPage, type ConnectPage } from './connect-pages.js';

export interface ConnectEndpointOptions {
  /** Your server's name, as users know it; every page shows it. */
  readonly serverName: string;
  /**
   * Where to send a browser with no session on your server: your sign-in page, which should come
   * back to `returnTo` (a path on this server) afterwards. Default: a page asking to sign in.
   */
  readonly signInUrl?: (returnTo: string) => string;
}

/** One browser request to the connect endpoint or its callback. */
export interface ConnectHttpRequest {
  readonly method: string;
  /** The request target as received: path and query. */
  readonly url: string;
  /** Who the browser is signed in as on your server (your session cookie), or undefined. */
  readonly principal: string | undefined;
  readonly signal?: AbortSignal;
}

export interface ConnectHttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * Every answer is uncacheable, sends no referrer (the ticket must not leak to the third party
 * through `Referer`) and cannot be framed.
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
};

function redirect(location: string): ConnectHttpResponse {
  return { status: 303, headers: { ...SECURITY_HEADERS, location }, body: '' };
}

function page(content: ConnectPage): ConnectHttpResponse {
  return {
    status: content.status,
    headers: { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8' },
    body: renderPage(content),
  };
}

/**
 * The HTTP face of {@link ConnectFlows}, independent of any server framework: `GET <connectUrl>`
 * checks the ticket against the browser's session and redirects to the third party;
 * `GET <callbackUrl>` records how the third party step ended. See `createConnectListener` for
 * node:http.
 */
export class ConnectEndpoint {
  private readonly flows: ConnectFlows;
  private readonly options: ConnectEndpointOptions;

  constructor(flows: ConnectFlows, options: ConnectEndpointOptions) {
    this.flows = flows;
    this.options = options;
  }

  /** Whether a path is the connect endpoint's or its callback's. */
  matches(pathname: string): boolean {
    return pathname === this.flows.connectUrl.pathname || pathname === this.flows.callbackUrl.pathname;
  }

  async handle(request: ConnectHttpRequest): Promise<ConnectHttpResponse> {
    const url = new URL(request.url, this.flows.connectUrl);
    if (!this.matches(url.pathname)) {
      return page({ status: 404, title: 'Not found', message: 'There is nothing here.' });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const response = page({
        status: 405,
        title: 'Method not allowed',
        message: 'Open this link in a browser.',
      });
      return { ...response, headers: { ...response.headers, allow: 'GET, HEAD' } };
    }
    // HEAD (link checkers, previews) must neither redeem a ticket nor finish a flow.
    if (request.method === 'HEAD') return { status: 200, headers: SECURITY_HEADERS, body: '' };
    if (url.pathname === this.flows.callbackUrl.pathname) {
      return this.callbackResponse(
        await this.flows.finishCallback(url.searchParams, request.principal, request.signal),
      );
    }
    const decision = await this.flows.openTicket(url.searchParams.get('ticket'), request.principal);
    return this.ticketResponse(decision, `${url.pathname}${url.search}`);
  }

  private ticketResponse(decision: TicketDecision, returnTo: string): ConnectHttpResponse {
    if (decision.outcome === 'redirect') return redirect(decision.location);
    if (decision.reason === 'signed-out' && this.options.signInUrl) {
      return redirect(this.options.signInUrl(returnTo));
    }
    return page(refusalPage(decision.reason, this.options.serverName));
  }

  private callbackResponse(decision: CallbackDecision): ConnectHttpResponse {
    switch (decision.outcome) {
      case 'completed':
        return page(completedPage(this.options.serverName));
      case 'failed':
        return page(failedPage(this.options.serverName, decision.error));
      case 'refused':
        return page(refusalPage(decision.reason, this.options.serverName, 'callback'));
    }
  }
}
