import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  describeUrlForConsent,
  formatUrlConsent,
  type UrlConsentPrompt,
  type UrlWarningCode,
} from '../../src/client/consent/index.js';

const SERVER = {
  serverName: 'Acme Tools',
  message: 'Connect your GitHub account.',
  serverUrl: 'https://mcp.acme.com/mcp',
};

const describeUrl = (url: string): UrlConsentPrompt => describeUrlForConsent(url, SERVER);

const codes = (prompt: UrlConsentPrompt): UrlWarningCode[] => prompt.warnings.map((warning) => warning.code);

const siteSegment = (prompt: UrlConsentPrompt) =>
  prompt.segments.find((segment) => segment.role === 'site')?.text;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('describeUrlForConsent', () => {
  it('shows the server, the message, the full URL and its registrable domain for a clean link', () => {
    const prompt = describeUrl('https://mcp.acme.com/connect?ticket=abc#top');
    expect(prompt).toMatchObject({
      serverName: 'Acme Tools',
      message: 'Connect your GitHub account.',
      url: 'https://mcp.acme.com/connect?ticket=abc#top',
      site: 'acme.com',
      hostname: 'mcp.acme.com',
      warnings: [],
      level: undefined,
      openable: true,
    });
    expect(prompt.segments).toEqual([
      { text: 'https://', role: 'scheme' },
      { text: 'mcp.', role: 'subdomain' },
      { text: 'acme.com', role: 'site' },
      { text: '/connect?ticket=abc#top', role: 'rest' },
    ]);
  });

  it.each<[string, string, UrlWarningCode[]]>([
    // Subdomain spoofing: another site's domain written in front of the real one.
    ['https://github.com.evil.example/login', 'evil.example', ['domain-in-subdomain']],
    ['https://login.paypal.co.uk.evil.example/', 'evil.example', ['domain-in-subdomain']],
    ['https://mcp.acme.com.attacker.io/connect', 'attacker.io', ['domain-in-subdomain', 'imitates-server']],
    ['https://acme-login.attacker.io/', 'attacker.io', ['imitates-server']],
    // International names: punycode shown, mixed scripts and Latin look-alikes flagged.
    ['https://xn--80ak6aa92e.com/', 'аррӏе.com', ['confusable', 'punycode']],
    ['https://аррӏе.com/', 'аррӏе.com', ['confusable', 'punycode']],
    ['https://gіthub.com/', 'gіthub.com', ['mixed-scripts', 'punycode']],
    ['https://аcme.com/', 'аcme.com', ['mixed-scripts', 'imitates-server', 'punycode']],
    ['https://münchen.de/', 'münchen.de', ['punycode', 'different-site']],
    ['https://例え.jp/', '例え.jp', ['punycode', 'different-site']],
    ['https://пример.рф/', 'пример.рф', ['punycode', 'different-site']],
    // Addresses that name nobody, or this computer.
    ['https://192.0.2.7/pay', '192.0.2.7', ['ip-address', 'different-site']],
    ['https://0xC0.0.2.7/pay', '192.0.2.7', ['ip-address', 'different-site']],
    ['https://[2001:db8::1]/', '[2001:db8::1]', ['ip-address', 'different-site']],
    ['http://127.0.0.1:8080/connect', '127.0.0.1', ['local-address', 'different-site']],
    ['http://localhost:3000/', 'localhost', ['local-address', 'different-site']],
    ['https://intranet/', 'intranet', ['no-registrable-domain', 'different-site']],
    // What stands before @ is not the host; plain http is readable by anyone on the way.
    ['https://github.com@evil.example/', 'evil.example', ['userinfo']],
    ['http://evil.example/', 'evil.example', ['not-https']],
    // Private suffixes: a github.io site belongs to its owner, not to GitHub.
    ['https://alice.github.io/', 'alice.github.io', ['different-site']],
    // Region and environment subdomains are not spoofs.
    ['https://api.us.acme.com/', 'acme.com', []],
    ['https://api.dev.acme.com/', 'acme.com', []],
  ])('%s: site %s, warnings %j', (url, site, expected) => {
    const prompt = describeUrl(url);
    expect(prompt.site).toBe(site);
    expect(codes(prompt)).toEqual(expected);
    expect(prompt.openable).toBe(true);
    expect(prompt.segments.map((segment) => segment.text).join('')).toBe(prompt.url);
  });

  it('says what a look-alike name reads as, and what the punycode really is', () => {
    const prompt = describeUrl('https://аррӏе.com/');
    expect(prompt.url).toBe('https://xn--80ak6aa92e.com/');
    expect(siteSegment(prompt)).toBe('xn--80ak6aa92e.com');
    expect(prompt.level).toBe('danger');
    expect(prompt.warnings[0]?.message).toBe(
      '"аррӏе" is written in Cyrillic letters that look like Latin ones: it reads as "apple".',
    );
    expect(prompt.warnings[1]?.message).toContain('"аррӏе.com" is really "xn--80ak6aa92e.com"');
    expect(describeUrl('https://gіthub.com/').warnings[0]?.message).toBe(
      '"gіthub" mixes Latin and Cyrillic letters; it reads as "github". Real names do not do this.',
    );
  });

  it('marks the real host, not the user info in front of it', () => {
    const prompt = describeUrl('https://github.com:x@evil.example:8443/a');
    expect(prompt.segments).toEqual([
      { text: 'https://', role: 'scheme' },
      { text: 'github.com:x@', role: 'userinfo' },
      { text: 'evil.example', role: 'site' },
      { text: ':8443/a', role: 'rest' },
    ]);
    expect(prompt.warnings[0]?.message).toBe(
      'The link starts with "github.com:…@", which is not where it goes: it leads to evil.example.',
    );
  });

  it('compares with nothing when it does not know the server', () => {
    const { serverUrl: _serverUrl, ...unknownServer } = SERVER;
    expect(codes(describeUrlForConsent('https://github.com/login/oauth', unknownServer))).toEqual([]);
    expect(codes(describeUrl('https://github.com/login/oauth'))).toEqual(['different-site']);
  });

  it.each(['javascript:alert(document.cookie)', 'file:///etc/passwd', 'data:text/html,<h1>hi', 'not a url'])(
    'will not open %s',
    (url) => {
      const prompt = describeUrl(url);
      expect(prompt).toMatchObject({ openable: false, url, level: 'danger', site: '' });
      expect(codes(prompt)).toEqual(['not-a-web-page']);
    },
  );

  it('strips bidi and control characters the server could use to disguise its message', () => {
    const prompt = describeUrlForConsent('https://mcp.acme.com/', {
      serverName: 'Acme\u202e sloot',
      message: 'Sign in\u0007 at\u2066 acme.com\u2069\nthen come back',
    });
    expect(prompt.serverName).toBe('Acme sloot');
    expect(prompt.message).toBe('Sign in at acme.com\nthen come back');
  });

  it('makes no network request while describing a link', () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    describeUrl('https://github.com.evil.example/login');
    describeUrl('https://аррӏе.com/');
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});

describe('formatUrlConsent', () => {
  it('brackets the site and lists the warnings, most severe first', () => {
    expect(formatUrlConsent(describeUrl('http://github.com.evil.example/login'))).toBe(
      [
        'Acme Tools asks you to open a link:',
        '  Connect your GitHub account.',
        '  http://github.com.[evil.example]/login',
        '  Site: evil.example',
        '  DANGER: The link is not secured with https: anyone on the network can read or change the page.',
        '  DANGER: The address begins with "github.com", but the link leads to evil.example.',
      ].join('\n'),
    );
  });

  it('says when a link will not be opened', () => {
    expect(formatUrlConsent(describeUrl('javascript:alert(1)'))).toBe(
      [
        'Acme Tools sent a link that will not be opened:',
        '  Connect your GitHub account.',
        '  javascript:alert(1)',
        '  DANGER: A javascript: link is not a web page and will not be opened.',
      ].join('\n'),
    );
  });
});
