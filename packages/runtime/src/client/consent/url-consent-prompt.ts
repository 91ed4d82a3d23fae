import { siteOf, type Site } from './site-of.js';
import { urlWarnings, type UrlWarning, type WarningSeverity } from './url-warnings.js';

/** A piece of the full URL; the pieces, joined, are the URL exactly as it will be opened. */
export interface UrlSegment {
  readonly text: string;
  /** `site` is the part to highlight: who controls the page. */
  readonly role: 'scheme' | 'userinfo' | 'subdomain' | 'site' | 'rest';
}

/** Everything a consent dialog for a URL-mode request must show. */
export interface UrlConsentPrompt {
  /** Which server asks, so the user knows whom they are answering. */
  readonly serverName: string;
  /** Why the server asks, as it said; control and bidi characters removed. */
  readonly message: string;
  /** The full URL, exactly as it will be opened if the user agrees. */
  readonly url: string;
  readonly segments: readonly UrlSegment[];
  /** Who controls the page (the registrable domain), decoded for display. */
  readonly site: string;
  /** The host name, decoded for display; differs from the URL's when it has international labels. */
  readonly hostname: string;
  readonly warnings: readonly UrlWarning[];
  /** The most severe warning's severity; undefined when there is nothing to warn about. */
  readonly level: WarningSeverity | undefined;
  /** False for anything but a web page (`javascript:`, `file:`, `data:`) or a URL that does not parse. */
  readonly openable: boolean;
}

export interface DescribeUrlOptions {
  readonly serverName: string;
  readonly message: string;
  /** The server's own URL (its MCP endpoint), to tell its site from others and catch imitations. */
  readonly serverUrl?: string | URL;
}

/** Control characters (newlines aside) and the bidi controls that can reorder how text reads. */
const UNSAFE_TEXT = /[\p{Cc}\p{Bidi_Control}]/gu;

function plainText(text: string): string {
  return text.replace(UNSAFE_TEXT, (character) => (character === '\n' ? character : ''));
}

function segmentsOf(url: URL, site: Site): UrlSegment[] {
  const scheme = `${url.protocol}//`;
  const userinfo =
    url.username === '' && url.password === ''
      ? ''
      : `${url.username}${url.password === '' ? '' : `:${url.password}`}@`;
  const rest = `${url.port === '' ? '' : `:${url.port}`}${url.pathname}${url.search}${url.hash}`;
  const segments: UrlSegment[] = [
    { text: scheme, role: 'scheme' },
    { text: userinfo, role: 'userinfo' },
    { text: site.subdomain, role: 'subdomain' },
    { text: site.site, role: 'site' },
    { text: rest, role: 'rest' },
  ];
  const pieces = segments.filter((segment) => segment.text !== '');
  // The pieces must spell the URL that opens; anything else would mislead, so show it whole.
  return pieces.map((segment) => segment.text).join('') === url.href
    ? pieces
    : [{ text: url.href, role: 'rest' }];
}

function unopenable(raw: string, options: DescribeUrlOptions, message: string): UrlConsentPrompt {
  return {
    serverName: plainText(options.serverName),
    message: plainText(options.message),
    url: raw,
    segments: [{ text: raw, role: 'rest' }],
    site: '',
    hostname: '',
    warnings: [{ code: 'not-a-web-page', severity: 'danger', message }],
    level: 'danger',
    openable: false,
  };
}

/**
 * What the UI must show before a URL-mode link is opened: the requesting server, the full URL
 * with its registrable domain marked, and warnings for plain http, user info, punycode, mixed
 * scripts, look-alike letters, domains spelled inside subdomains, imitations of the server's own
 * site and IP literals. It makes no network request: nothing is prefetched.
 */
export function describeUrlForConsent(raw: string, options: DescribeUrlOptions): UrlConsentPrompt {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return unopenable(raw, options, 'This is not a valid web address.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return unopenable(raw, options, `A ${url.protocol} link is not a web page and will not be opened.`);
  }
  const site = siteOf(url.hostname);
  const server = serverSiteOf(options.serverUrl);
  const warnings = urlWarnings(url, site, server);
  return {
    serverName: plainText(options.serverName),
    message: plainText(options.message),
    url: url.href,
    segments: segmentsOf(url, site),
    site: site.siteUnicode,
    hostname: site.hostnameUnicode,
    warnings,
    level: warnings[0]?.severity,
    openable: true,
  };
}

function serverSiteOf(serverUrl: string | URL | undefined): Site | undefined {
  if (serverUrl === undefined) return undefined;
  try {
    return siteOf(new URL(serverUrl).hostname);
  } catch {
    return undefined;
  }
}
