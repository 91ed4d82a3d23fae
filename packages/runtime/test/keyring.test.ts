import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateStateKeySecret, Keyring, RuntimeConfigError } from '../src/index.js';

const secret = () => randomBytes(32).toString('base64url');

describe('Keyring.fromEnv', () => {
  it('reads the current key first and previous keys after it', () => {
    const keyring = Keyring.fromEnv('KEYS', {
      KEYS: `k2:${secret()}, k1:${randomBytes(48).toString('base64')}`,
    });
    expect(keyring.currentId).toBe('k2');
    expect(keyring.get('k1')).toBeDefined();
    expect(keyring.get('k3')).toBeUndefined();
  });

  it('accepts a generated secret', () => {
    expect(Keyring.fromEnv('KEYS', { KEYS: `main:${generateStateKeySecret()}` }).currentId).toBe('main');
  });

  it.each([
    ['a missing variable', {}, /Set KEYS to the requestState keys/],
    ['an empty variable', { KEYS: '  ' }, /Set KEYS/],
    ['an entry without an id', { KEYS: secret() }, /entry 1 must look like "id:base64secret"/],
    ['a secret that is not base64', { KEYS: 'k1:not*base64' }, /entry 1 must look like/],
    [
      'a short key',
      { KEYS: `k1:${randomBytes(16).toString('base64')}` },
      /key "k1" is 16 bytes; .* at least 32/,
    ],
    ['a repeated id', { KEYS: `k1:${secret()},k1:${secret()}` }, /key id "k1" appears twice/],
    ['a bad id', { KEYS: `k.1:${secret()}` }, /key id "k.1" must be/],
  ])('refuses %s with a startup error', (_name, env, message) => {
    expect(() => Keyring.fromEnv('KEYS', env)).toThrow(RuntimeConfigError);
    expect(() => Keyring.fromEnv('KEYS', env)).toThrow(message);
  });
});

describe('Keyring.fromProvider', () => {
  it('loads keys from an async provider', async () => {
    const keyring = await Keyring.fromProvider(() =>
      Promise.resolve({ current: { id: 'vault', secret: randomBytes(32) } }),
    );
    expect(keyring.currentId).toBe('vault');
  });

  it('refuses a short key from a provider', async () => {
    await expect(
      Keyring.fromProvider(() => ({ current: { id: 'vault', secret: new Uint8Array(31) } })),
    ).rejects.toThrow(/key "vault" is 31 bytes/);
  });
});
