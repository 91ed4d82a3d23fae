import { describe, expect, it } from 'vitest';
import { checkElicitationUrl, classifyUrlParameter, isLocalHostname } from '../src/index.js';

const codes = (url: string) => checkElicitationUrl(url).map((problem) => problem.code);

describe('checkElicitationUrl', () => {
  it.each([
    'https://mcp.example.com/connect?ticket=9f2c81d0',
    'https://mcp.example.com/ui/set_api_key',
    'http://localhost:3000/connect?ticket=abc',
    'http://127.0.0.1:8080/connect',
    'http://app.localhost/connect',
    'http://[::1]:9000/connect',
    'https://example.com/pay?order=42&state=xyz&countryCode=DE',
  ])('accepts %s', (url) => {
    expect(checkElicitationUrl(url)).toEqual([]);
  });

  it.each([
    ['connect?ticket=1', 'not-absolute'],
    ['http://mcp.example.com/connect', 'insecure-scheme'],
    ['http://localhost.example.com/connect', 'insecure-scheme'],
    ['http://127.0.0.1.nip.io/connect', 'insecure-scheme'],
    ['ftp://localhost/connect', 'insecure-scheme'],
    ['javascript:alert(1)', 'insecure-scheme'],
    ['https://alice:hunter2@example.com/', 'credentials-in-userinfo'],
    ['https://example.com/cb?access_token=abc', 'secret-in-query'],
    ['https://example.com/cb?apiKey=abc', 'secret-in-query'],
    ['https://example.com/cb?password=x', 'secret-in-query'],
    ['https://example.com/cb?code=4/0Ab', 'secret-in-query'],
    ['https://example.com/cb?session=s1', 'secret-in-query'],
    ['https://example.com/cb#access_token=abc', 'secret-in-query'],
    ['https://example.com/invite?email=bob@example.com', 'personal-data-in-query'],
    ['https://example.com/invite?phone_number=123', 'personal-data-in-query'],
    ['https://bucket.s3.amazonaws.com/report.pdf?X-Amz-Signature=abc', 'pre-authenticated'],
    ['https://example.com/login?login_token=abc', 'pre-authenticated'],
    ['https://example.com/doc?sig=abc', 'pre-authenticated'],
  ])('refuses %s (%s)', (url, code) => {
    expect(codes(url)).toEqual([code]);
  });

  it('names the parameter and tells what to do instead', () => {
    expect(checkElicitationUrl('https://example.com/cb?refresh_token=r')).toEqual([
      {
        code: 'secret-in-query',
        parameter: 'refresh_token',
        message:
          'A URL elicitation must not carry a token in the URL (parameter "refresh_token"); use an opaque one-time ticket bound to the user.',
      },
    ]);
  });

  it("refuses a third party's authorization request, which a forwarded link turns into an account takeover", () => {
    const url =
      'https://github.com/login/oauth/authorize?response_type=code&client_id=Iv1.abc&redirect_uri=https%3A%2F%2Fmcp.example.com%2Fcb&state=s';
    expect(checkElicitationUrl(url)).toEqual([
      {
        code: 'pre-authenticated',
        parameter: 'response_type',
        message: expect.stringContaining('connect page of your own server') as string,
      },
    ]);
    expect(codes('https://example.com/docs?response_type=code')).toEqual([]);
    expect(codes('https://example.com/apps?client_id=Iv1.abc')).toEqual([]);
  });

  it('reports every problem at once', () => {
    expect(codes('http://bob:pw@example.com/?token=1&email=a@b.c')).toEqual([
      'insecure-scheme',
      'credentials-in-userinfo',
      'secret-in-query',
      'personal-data-in-query',
    ]);
  });
});

describe('classifyUrlParameter', () => {
  it('matches short credential keys only as whole keys', () => {
    expect(classifyUrlParameter('key')?.code).toBe('secret-in-query');
    expect(classifyUrlParameter('keyboard')).toBeUndefined();
    expect(classifyUrlParameter('zipCode')?.code).toBe('personal-data-in-query');
    expect(classifyUrlParameter('errorCode')).toBeUndefined();
  });

  it('takes the sensitive-name options', () => {
    expect(classifyUrlParameter('licenseKey')).toBeUndefined();
    expect(classifyUrlParameter('licenseKey', { extraTerms: ['license key'] })?.code).toBe('secret-in-query');
  });
});

describe('isLocalHostname', () => {
  it.each([
    ['localhost', true],
    ['LOCALHOST', true],
    ['dev.localhost', true],
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['[::1]', true],
    ['127.0.0.1.nip.io', false],
    ['localhost.example.com', false],
    ['128.0.0.1', false],
  ])('%s → %s', (hostname, local) => {
    expect(isLocalHostname(hostname)).toBe(local);
  });
});
