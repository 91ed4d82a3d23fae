import { classifySensitiveName, splitWordParts, type SensitiveNameOptions } from './sensitive-names.js';

/**
 * What a URL-mode elicitation URL must not be (spec guide, "Security"): plain http outside
 * development, a carrier of credentials or personal data, or a pre-authenticated link to a
 * protected resource. The runtime's URL builder and the `valid-url-elicitation` lint rule both
 * call {@link checkElicitationUrl}, so they refuse exactly the same URLs.
 */

export type UrlProblemCode =
  | 'not-absolute'
  | 'insecure-scheme'
  | 'credentials-in-userinfo'
  | 'secret-in-query'
  | 'personal-data-in-query'
  | 'pre-authenticated';

export interface UrlProblem {
  readonly code: UrlProblemCode;
  /** The query parameter at fault, when there is one. */
  readonly parameter?: string;
  /** One sentence, for a thrown error or a lint message. */
  readonly message: string;
}

/**
 * Whole query keys that carry a session, an authorization code or a signature. Matched on the
 * entire key, since as word parts they are too common (`countryCode`, `keyboard`).
 */
const CREDENTIAL_KEYS = new Set(['code', 'session', 'sessionid', 'sid', 'auth', 'key', 'jwt', 'nonce']);

/** Word-part phrases of personal data that must not travel in a URL. */
const PERSONAL_DATA_TERMS = [
  'email',
  'e mail',
  'mail',
  'phone',
  'mobile',
  'msisdn',
  'dob',
  'birthdate',
  'birth date',
  'date of birth',
  'full name',
  'first name',
  'last name',
  'surname',
  'address',
  'postcode',
  'zip',
  'ssn',
];

/**
 * Query keys that make a link pre-authenticated: signed URLs (S3, GCS, Azure SAS) and magic-login
 * parameters. Whoever holds such a link acts as the user, so a forwarded copy is an account.
 */
const PRE_AUTHENTICATING_KEYS = new Set([
  'signature',
  'sig',
  'x amz signature',
  'x amz credential',
  'x goog signature',
  'x goog credential',
  'login token',
  'magic',
  'magic link',
  'otp',
  'impersonate',
]);

function isLoopbackIpv4(hostname: string): boolean {
  const octets = hostname.split('.');
  return (
    octets.length === 4 && octets[0] === '127' && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) < 256)
  );
}

/** `localhost`, `*.localhost`, 127.0.0.0/8 and `[::1]`: where plain http is acceptable in development. */
export function isLocalHostname(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || isLoopbackIpv4(host);
}

/** Each personal-data term as its words, split once. */
const PERSONAL_DATA_PHRASES = PERSONAL_DATA_TERMS.map((term) => ({ term, words: term.split(' ') }));

function hasPhrase(parts: readonly string[], words: readonly string[]): boolean {
  return parts.some((_, at) => words.every((word, i) => parts[at + i] === word));
}

/** Why a query parameter name must not appear in an elicitation URL, or undefined when it may. */
export function classifyUrlParameter(
  name: string,
  options: SensitiveNameOptions = {},
): { code: 'secret-in-query' | 'personal-data-in-query' | 'pre-authenticated'; what: string } | undefined {
  const parts = splitWordParts(name);
  const joined = parts.join(' ');
  if (PRE_AUTHENTICATING_KEYS.has(joined)) return { code: 'pre-authenticated', what: 'a sign-in credential' };
  if (CREDENTIAL_KEYS.has(joined)) return { code: 'secret-in-query', what: 'a credential' };
  const secret = classifySensitiveName(name, options);
  if (secret) return { code: 'secret-in-query', what: `a ${secret.kind.replace(/-/g, ' ')}` };
  const personal = PERSONAL_DATA_PHRASES.find(({ words }) => hasPhrase(parts, words));
  if (personal) return { code: 'personal-data-in-query', what: `personal data (${personal.term})` };
  return undefined;
}

/**
 * An OAuth authorization request (RFC 6749, 4.1.1: `response_type` and `client_id`). Handing it out
 * is the forwarded-link account takeover of the spec guide's "Security" section: it is reported
 * as `pre-authenticated`, since like a signed link it lets whoever opens it act in the flow.
 */
function isAuthorizationRequest(url: URL): boolean {
  return url.searchParams.has('response_type') && url.searchParams.has('client_id');
}

/** Every problem with a URL-mode elicitation URL; an empty list means it may be sent. */
export function checkElicitationUrl(text: string, options: SensitiveNameOptions = {}): UrlProblem[] {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return [
      {
        code: 'not-absolute',
        message: `A URL elicitation needs an absolute URL, not ${JSON.stringify(text)}.`,
      },
    ];
  }

  const problems: UrlProblem[] = [];
  const local = isLocalHostname(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
    problems.push({
      code: 'insecure-scheme',
      message: `A URL elicitation must use https (http only on localhost), not ${url.protocol}//${url.host}.`,
    });
  }
  if (url.username !== '' || url.password !== '') {
    problems.push({
      code: 'credentials-in-userinfo',
      message: 'A URL elicitation must not carry a user name or password in the URL.',
    });
  }
  const fragment = new URLSearchParams(url.hash.slice(1));
  for (const name of new Set([...url.searchParams.keys(), ...fragment.keys()])) {
    const verdict = classifyUrlParameter(name, options);
    if (!verdict) continue;
    problems.push({
      code: verdict.code,
      parameter: name,
      message:
        verdict.code === 'pre-authenticated'
          ? `The URL is pre-authenticated (parameter "${name}"): anyone holding it acts as the user. Link to a page of your own server that identifies the user by their session.`
          : `A URL elicitation must not carry ${verdict.what} in the URL (parameter "${name}"); use an opaque one-time ticket bound to the user.`,
    });
  }
  if (isAuthorizationRequest(url)) {
    problems.push({
      code: 'pre-authenticated',
      parameter: 'response_type',
      message:
        "The URL is a third party's OAuth authorization request (client_id, response_type): whoever opens it grants their account to the user who started the elicitation, so a forwarded link takes over an account. Link to a connect page of your own server that checks the user's session and redirects from there.",
    });
  }
  return problems;
}
