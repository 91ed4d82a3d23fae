import type {
  ClientCapabilities,
  ElicitResult,
  InputRequest,
  InputResponse,
  JsonObject,
  RootsResult,
  SamplingResult,
} from '../protocol.js';
import { isJsonObject } from '../protocol.js';
import { UnsupportedInputRequestError } from './client-errors.js';

/** What a URL-mode request asks the user to consent to, with what a consent dialog must show. */
export interface UrlConsentRequest {
  readonly message: string;
  /** The full URL, to show as is. */
  readonly url: string;
  /** The host to highlight, so a look-alike subdomain stands out. */
  readonly host: string;
  /** Whether the URL uses https (or http on localhost). */
  readonly secure: boolean;
  /** Whether the host is punycode (`xn--`), which deserves a warning. */
  readonly punycode: boolean;
}

export interface InputContext {
  readonly signal: AbortSignal;
  /** The key the server asked under. */
  readonly key: string;
}

/**
 * How a client answers input requests. Provide only what the client supports, and declare the
 * matching capabilities ({@link clientCapabilitiesFor}).
 */
export interface InputHandlers {
  /** Show the form, let the user review it, and return their action and content. */
  readonly form?: (
    params: { readonly message: string; readonly requestedSchema: JsonObject },
    context: InputContext,
  ) => Promise<ElicitResult>;
  /**
   * URL mode: show the full URL and its host and ask the user. Only after an explicit `accept` does
   * the loop call {@link open}; nothing is ever opened or prefetched without it.
   */
  readonly url?: {
    readonly consent: (
      request: UrlConsentRequest,
      context: InputContext,
    ) => Promise<'accept' | 'decline' | 'cancel'>;
    /** Opens the URL in a browser the client cannot inspect (the OS browser). */
    readonly open: (url: string, context: InputContext) => Promise<void>;
  };
  /** @deprecated Sampling is deprecated in 2026-07-28 (SEP-2577). */
  readonly sampling?: (params: JsonObject, context: InputContext) => Promise<SamplingResult>;
  /** @deprecated Roots are deprecated in 2026-07-28 (SEP-2577). */
  readonly roots?: (context: InputContext) => Promise<RootsResult>;
}

/** The capabilities a client with these handlers declares in every request's `_meta`. */
export function clientCapabilitiesFor(handlers: InputHandlers): ClientCapabilities {
  const elicitation = { ...(handlers.form && { form: {} }), ...(handlers.url && { url: {} }) };
  return {
    ...(Object.keys(elicitation).length > 0 && { elicitation }),
    ...(handlers.sampling && { sampling: {} }),
    ...(handlers.roots && { roots: {} }),
  };
}

function describeUrl(message: string, raw: string): UrlConsentRequest {
  const url = new URL(raw);
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  return {
    message,
    url: url.href,
    host: url.host,
    secure: url.protocol === 'https:' || (url.protocol === 'http:' && local),
    punycode: url.hostname.split('.').some((label) => label.startsWith('xn--')),
  };
}

/** Answers one input request through the handlers; throws when the client cannot serve it. */
export async function answerInputRequest(
  request: InputRequest,
  handlers: InputHandlers,
  context: InputContext,
): Promise<InputResponse> {
  const params: JsonObject = isJsonObject(request.params) ? request.params : {};
  switch (request.method) {
    case 'elicitation/create': {
      const message = typeof params.message === 'string' ? params.message : '';
      if (params.mode === 'url') {
        if (!handlers.url || typeof params.url !== 'string') {
          throw new UnsupportedInputRequestError(context.key, 'URL-mode elicitation');
        }
        let consentRequest: UrlConsentRequest;
        try {
          consentRequest = describeUrl(message, params.url);
        } catch {
          return { action: 'decline' };
        }
        const action = await handlers.url.consent(consentRequest, context);
        if (action === 'accept') await handlers.url.open(consentRequest.url, context);
        return { action };
      }
      if (!handlers.form || !isJsonObject(params.requestedSchema)) {
        throw new UnsupportedInputRequestError(context.key, 'form elicitation');
      }
      return handlers.form({ message, requestedSchema: params.requestedSchema }, context);
    }
    case 'sampling/createMessage':
      if (!handlers.sampling) throw new UnsupportedInputRequestError(context.key, 'sampling');
      return handlers.sampling(params, context);
    case 'roots/list':
      if (!handlers.roots) throw new UnsupportedInputRequestError(context.key, 'roots');
      return handlers.roots(context);
    default:
      throw new UnsupportedInputRequestError(context.key, String((request as { method: unknown }).method));
  }
}
