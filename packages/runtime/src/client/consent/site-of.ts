import { isIP } from 'node:net';
import { domainToUnicode } from 'node:url';
import { isLocalHostname } from '@mcp-mrtr/core';
import { parse } from 'tldts';

/** Who controls a host, as far as its name tells. */
export interface Site {
  /** The ASCII (punycode) host name, as the browser will resolve it. */
  readonly hostname: string;
  /** The host name with international labels decoded, for display. */
  readonly hostnameUnicode: string;
  /**
   * The name to highlight: the registrable domain from the Public Suffix List, private section
   * included (`alice.github.io` is Alice's, not GitHub's); the address itself for IP literals and
   * names without one (`localhost`, `intranet`).
   */
  readonly site: string;
  readonly siteUnicode: string;
  /** Labels before the registrable domain (`login.` in `login.example.com`), empty when none. */
  readonly subdomain: string;
  /** The public suffix (`com`, `co.uk`, `github.io`), empty when the name has none. */
  readonly publicSuffix: string;
  readonly kind: 'domain' | 'ip' | 'local' | 'bare';
}

/** Splits a WHATWG-parsed host name into its site and subdomain, using the Public Suffix List. */
export function siteOf(hostname: string): Site {
  const hostnameUnicode = domainToUnicode(hostname) || hostname;
  const base = { hostname, hostnameUnicode, subdomain: '', publicSuffix: '' };
  if (isIP(hostname.replace(/^\[|\]$/g, '')) !== 0) {
    return {
      ...base,
      site: hostname,
      siteUnicode: hostname,
      kind: isLocalHostname(hostname) ? 'local' : 'ip',
    };
  }
  if (isLocalHostname(hostname))
    return { ...base, site: hostname, siteUnicode: hostnameUnicode, kind: 'local' };
  const parsed = parse(hostname, { allowPrivateDomains: true });
  if (!parsed.domain) return { ...base, site: hostname, siteUnicode: hostnameUnicode, kind: 'bare' };
  const subdomain = parsed.subdomain ? `${parsed.subdomain}.` : '';
  return {
    hostname,
    hostnameUnicode,
    site: parsed.domain,
    siteUnicode: domainToUnicode(parsed.domain) || parsed.domain,
    subdomain,
    publicSuffix: parsed.publicSuffix ?? '',
    kind: 'domain',
  };
}

/** Whether `candidate` is itself an ICANN registrable domain (`github.com`, `paypal.co.uk`). */
export function isIcannDomain(candidate: string): boolean {
  const parsed = parse(candidate);
  return parsed.isIcann === true && parsed.domain === candidate;
}

/** The ICANN public suffix of a domain (`co.uk` for `paypal.co.uk`). */
export function publicSuffixOf(domain: string): string {
  return parse(domain).publicSuffix ?? '';
}
