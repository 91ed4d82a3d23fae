import { remove as latinLookalikes } from 'confusables';
import { isSuspiciousMix, scriptsOf } from './label-scripts.js';
import { isIcannDomain, publicSuffixOf, type Site } from './site-of.js';

export type WarningSeverity = 'danger' | 'caution' | 'info';

/** What a consent dialog warns about, from the most to the least severe. */
export const URL_WARNING_CODES = [
  /** Not an http(s) URL (`javascript:`, `file:`), or not a URL at all: it is never opened. */
  'not-a-web-page',
  /** Plain http to a host other than this computer. */
  'not-https',
  /** `https://github.com@evil.example/`: what stands before `@` is not where the link goes. */
  'userinfo',
  /** A label mixing scripts no real name mixes (Latin with Cyrillic). */
  'mixed-scripts',
  /** A label written entirely in letters that look like Latin ones. */
  'confusable',
  /** The subdomain spells another site's domain: `github.com.evil.example`. */
  'domain-in-subdomain',
  /** The link names or imitates the server's own site but belongs to someone else. */
  'imitates-server',
  /** International characters, shown decoded and as the punycode the browser resolves. */
  'punycode',
  /** A bare IP address: there is no name to check. */
  'ip-address',
  /** A name without a registrable domain (`intranet`). */
  'no-registrable-domain',
  /** A page on this computer. */
  'local-address',
  /** Another site than the server's own. */
  'different-site',
] as const;

export type UrlWarningCode = (typeof URL_WARNING_CODES)[number];

export interface UrlWarning {
  readonly code: UrlWarningCode;
  readonly severity: WarningSeverity;
  /** One sentence for the user. */
  readonly message: string;
}

/**
 * Suffixes under which a domain spelled inside a subdomain is taken for a spoof: the original
 * generic TLDs (RFC 1591) and every multi-label suffix (`co.uk`). Two-letter and newer suffixes
 * (`us`, `dev`, `app`) also name regions and environments (`api.us.example.com`), so they stay
 * quiet rather than cry wolf; the highlighted registrable domain still shows where a link goes.
 */
const SPOOFED_SUFFIXES = new Set(['com', 'net', 'org', 'edu', 'gov', 'mil', 'int']);

const SEVERITY_ORDER: Readonly<Record<WarningSeverity, number>> = { danger: 0, caution: 1, info: 2 };

/** What a name reads as in Latin letters, when every letter of it has a Latin look-alike. */
function readsAs(name: string): string | undefined {
  const latin = latinLookalikes(name).toLowerCase();
  return latin !== name && /^[a-z0-9.-]+$/.test(latin) ? latin : undefined;
}

function labelWarnings(site: Site): UrlWarning[] {
  const warnings: UrlWarning[] = [];
  const labels = site.hostnameUnicode.split('.');
  // Under a top-level domain of the same script (пример.рф), a whole-script name is the norm.
  const topLevelScripts = scriptsOf(labels.at(-1) ?? '');
  for (const label of labels) {
    const scripts = scriptsOf(label);
    const latin = readsAs(label);
    if (isSuspiciousMix(scripts)) {
      warnings.push({
        code: 'mixed-scripts',
        severity: 'danger',
        message: `"${label}" mixes ${scripts.join(' and ')} letters${latin ? `; it reads as "${latin}"` : ''}. Real names do not do this.`,
      });
    } else if (
      latin &&
      scripts.length === 1 &&
      scripts[0] !== 'Latin' &&
      !topLevelScripts.includes(scripts[0]!)
    ) {
      warnings.push({
        code: 'confusable',
        severity: 'danger',
        message: `"${label}" is written in ${scripts[0]} letters that look like Latin ones: it reads as "${latin}".`,
      });
    }
  }
  return warnings;
}

/** A registrable domain spelled out inside the subdomain, under a suffix people recognise. */
function domainInSubdomain(site: Site): string | undefined {
  const labels = site.subdomain.split('.').filter(Boolean);
  for (let start = 0; start < labels.length; start++) {
    for (const length of [2, 3]) {
      const candidate = labels.slice(start, start + length).join('.');
      if (start + length > labels.length || !isIcannDomain(candidate)) continue;
      const suffix = publicSuffixOf(candidate);
      if (SPOOFED_SUFFIXES.has(suffix) || suffix.includes('.')) return candidate;
    }
  }
  return undefined;
}

/** The words of a host name before its public suffix, split at dots and hyphens. */
function wordsOf(site: Site): string[] {
  const owned = site.hostname.slice(0, site.hostname.length - site.publicSuffix.length);
  return owned.split(/[.-]/).filter(Boolean);
}

function imitatesServer(site: Site, server: Site): boolean {
  if (server.kind !== 'domain' || site.site === server.site) return false;
  const skeleton = readsAs(site.siteUnicode);
  if (skeleton !== undefined && skeleton === server.site) return true;
  const name = server.site.slice(0, server.site.length - server.publicSuffix.length - 1);
  return name.length >= 3 && wordsOf(site).includes(name);
}

/** Everything a consent dialog should warn about a link, most severe first. */
export function urlWarnings(url: URL, site: Site, server: Site | undefined): UrlWarning[] {
  const warnings: UrlWarning[] = [];
  const where = site.siteUnicode;
  if (url.protocol === 'http:' && site.kind !== 'local') {
    warnings.push({
      code: 'not-https',
      severity: 'danger',
      message: 'The link is not secured with https: anyone on the network can read or change the page.',
    });
  }
  if (url.username !== '' || url.password !== '') {
    const before = decodeURIComponent(url.username) + (url.password === '' ? '' : ':…');
    warnings.push({
      code: 'userinfo',
      severity: 'danger',
      message: `The link starts with "${before}@", which is not where it goes: it leads to ${where}.`,
    });
  }
  warnings.push(...labelWarnings(site));
  const embedded = site.kind === 'domain' ? domainInSubdomain(site) : undefined;
  if (embedded) {
    warnings.push({
      code: 'domain-in-subdomain',
      severity: 'danger',
      message: `The address begins with "${embedded}", but the link leads to ${where}.`,
    });
  }
  if (server && imitatesServer(site, server)) {
    warnings.push({
      code: 'imitates-server',
      severity: 'danger',
      message: `The link looks like ${server.siteUnicode}, the server's own site, but leads to ${where}.`,
    });
  }
  if (site.hostname !== site.hostnameUnicode) {
    warnings.push({
      code: 'punycode',
      severity: 'caution',
      message: `The address uses international characters: "${site.hostnameUnicode}" is really "${site.hostname}".`,
    });
  }
  if (site.kind === 'ip') {
    warnings.push({
      code: 'ip-address',
      severity: 'caution',
      message: `The link goes to a bare IP address (${site.hostname}), which names nobody.`,
    });
  }
  if (site.kind === 'bare') {
    warnings.push({
      code: 'no-registrable-domain',
      severity: 'caution',
      message: `"${site.hostnameUnicode}" is not a registered domain name, so there is no owner to show.`,
    });
  }
  if (site.kind === 'local') {
    warnings.push({
      code: 'local-address',
      severity: 'info',
      message: `The link opens a page served by this computer (${site.hostname}).`,
    });
  }
  if (server && site.site !== server.site && !warnings.some((warning) => warning.severity === 'danger')) {
    warnings.push({
      code: 'different-site',
      severity: 'info',
      message: `The link leads to ${where}, not to the server's own site (${server.siteUnicode}).`,
    });
  }
  return warnings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
}
