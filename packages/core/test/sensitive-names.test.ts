import { describe, expect, it } from 'vitest';
import { classifySensitiveName, isSensitiveName, splitWordParts } from '../src/index.js';

describe('splitWordParts', () => {
  it.each([
    ['apiKey', ['api', 'key']],
    ['api_key', ['api', 'key']],
    ['API-KEY', ['api', 'key']],
    ['APIKey', ['api', 'key']],
    ['x-api-key', ['x', 'api', 'key']],
    ['oauth2Token', ['oauth', '2', 'token']],
    ['Enter your API key', ['enter', 'your', 'api', 'key']],
    ['cvv2', ['cvv', '2']],
    ['', []],
  ])('%s', (input, parts) => {
    expect(splitWordParts(input)).toEqual(parts);
  });
});

describe('classifySensitiveName', () => {
  it.each([
    ['apiKey', 'api-key'],
    ['api_key', 'api-key'],
    ['API-KEY', 'api-key'],
    ['APIKEY', 'api-key'],
    ['password', 'password'],
    ['newPassword', 'password'],
    ['passwordConfirmation', 'password'],
    ['passphrase', 'password'],
    ['accessToken', 'token'],
    ['refresh_token', 'token'],
    ['githubToken', 'token'],
    ['clientSecret', 'secret'],
    ['secretKey', 'api-key'],
    ['privateKey', 'private-key'],
    ['PRIVATE_KEY', 'private-key'],
    ['seedPhrase', 'private-key'],
    ['wallet_seed_phrase', 'private-key'],
    ['recoveryPhrase', 'private-key'],
    ['mnemonic', 'private-key'],
    ['Your 12-word recovery phrase', 'private-key'],
    ['cardNumber', 'payment'],
    ['credit-card', 'payment'],
    ['cvv', 'payment'],
    ['ssn', 'government-id'],
    ['socialSecurityNumber', 'government-id'],
    ['otp', 'one-time-code'],
    ['oneTimeCode', 'one-time-code'],
    ['verificationCode', 'one-time-code'],
    ['Your API key for the weather service', 'api-key'],
    ['Enter your password', 'password'],
  ])('%s names a secret (%s)', (name, kind) => {
    expect(classifySensitiveName(name)?.kind).toBe(kind);
  });

  it.each([
    'tokenizer',
    'maxTokens',
    'passwordPolicyUrl',
    'password_reset_url',
    'tokenCount',
    'accessTokenExpiry',
    'apiKeyId',
    'privateKeyPath',
    'seed',
    'randomSeed',
    'mnemonicLength',
    'secretary',
    'keyboard',
    'username',
    'email',
    'zipCode',
    'countryCode',
    'key',
    'Link to the password policy',
    'isPasswordSet',
  ])('%s does not', (name) => {
    expect(classifySensitiveName(name)).toBeUndefined();
  });

  it('reports the matched term', () => {
    expect(classifySensitiveName('x-api-key')).toEqual({ kind: 'api-key', term: 'api key' });
  });

  it('takes extra terms and an allow list', () => {
    expect(isSensitiveName('licenseKey')).toBe(false);
    expect(isSensitiveName('licenseKey', { extraTerms: ['license key'] })).toBe(true);
    expect(isSensitiveName('token', { allow: ['token'] })).toBe(false);
    expect(isSensitiveName('TOKEN', { allow: ['token'] })).toBe(false);
    expect(isSensitiveName('accessToken', { allow: ['token'] })).toBe(true);
  });

  it('lets callers replace the qualifier list', () => {
    expect(isSensitiveName('passwordPolicyUrl', { qualifiers: [] })).toBe(true);
  });

  it('keeps the answers of each options object apart', () => {
    const allowToken = { allow: ['token'] };
    expect(isSensitiveName('token')).toBe(true);
    expect(isSensitiveName('token', allowToken)).toBe(false);
    expect(isSensitiveName('token')).toBe(true);
    expect(isSensitiveName('token', allowToken)).toBe(false);
    expect(isSensitiveName('token', { extraTerms: ['license key'] })).toBe(true);
  });

  it('answers the same for a name asked many times and past its answer cache', () => {
    const names = Array.from({ length: 5000 }, (_, i) => (i % 2 === 0 ? `field${i}` : `apiKey${i}`));
    const first = names.map((name) => classifySensitiveName(name)?.kind);
    expect(names.map((name) => classifySensitiveName(name)?.kind)).toEqual(first);
    expect(first.filter((kind) => kind === 'api-key')).toHaveLength(2500);
    expect(Object.isFrozen(classifySensitiveName('password'))).toBe(true);
  });
});
