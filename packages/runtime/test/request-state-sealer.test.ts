import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  Keyring,
  MemoryRedemptionStore,
  MrtrUsageError,
  RequestStateError,
  RequestStateSealer,
  RuntimeConfigError,
  type RequestStateBinding,
  type SealingAlgorithm,
  type StateKey,
} from '../src/index.js';

const key = (id: string): StateKey => ({ id, secret: randomBytes(32) });
const binding: RequestStateBinding = {
  principal: 'user-1',
  request: { method: 'tools/call', target: 'deploy', arguments: { env: 'prod', replicas: 2 } },
};

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RequestStateError) return error.reason;
    throw error;
  }
  return 'opened';
}

describe.each<SealingAlgorithm>(['aes-256-gcm', 'hmac-sha256'])('RequestStateSealer with %s', (algorithm) => {
  let clock = 1_000_000;
  const now = () => clock;
  const k1 = key('k1');
  const sealer = new RequestStateSealer({
    keyring: new Keyring({ current: k1 }),
    algorithm,
    ttlSeconds: 60,
    now,
  });

  it('opens what it sealed, for the same principal and request', async () => {
    const token = sealer.seal({ step: 'color', name: 'Ada' }, binding);
    expect(token).toMatch(new RegExp(`^m1\\.${algorithm === 'aes-256-gcm' ? 'g' : 'h'}\\.k1\\.`));
    await expect(sealer.open(token, binding)).resolves.toEqual({ step: 'color', name: 'Ada' });
  });

  it('binds arguments canonically: key order does not matter, values do', async () => {
    const token = sealer.seal(1, binding);
    const reordered = {
      ...binding,
      request: { ...binding.request, arguments: { replicas: 2, env: 'prod' } },
    };
    await expect(sealer.open(token, reordered)).resolves.toBe(1);
    const changed = { ...binding, request: { ...binding.request, arguments: { replicas: 3, env: 'prod' } } };
    expect(await reasonOf(sealer.open(token, changed))).toBe('request');
  });

  it.each<[string, Partial<RequestStateBinding['request']>]>([
    ['another tool', { target: 'destroy' }],
    ['another method', { method: 'prompts/get' }],
    ['no arguments', { arguments: undefined }],
  ])('refuses %s', async (_name, change) => {
    const token = sealer.seal(1, binding);
    expect(
      await reasonOf(sealer.open(token, { ...binding, request: { ...binding.request, ...change } })),
    ).toBe('request');
  });

  it('refuses another principal', async () => {
    const token = sealer.seal(1, binding);
    expect(await reasonOf(sealer.open(token, { ...binding, principal: 'user-2' }))).toBe('principal');
  });

  it('refuses a token after its expiry, and not before', async () => {
    const token = sealer.seal(1, binding);
    clock += 60_000;
    await expect(sealer.open(token, binding)).resolves.toBe(1);
    clock += 1;
    expect(await reasonOf(sealer.open(token, binding))).toBe('expired');
  });

  it('refuses altered and forged tokens as mac failures', async () => {
    const token = sealer.seal({ admin: false }, binding);
    const parts = token.split('.');
    const last = parts[4] ?? '';
    const flipped = `${last[0] === 'A' ? 'B' : 'A'}${last.slice(1)}`;
    expect(await reasonOf(sealer.open([...parts.slice(0, 4), flipped].join('.'), binding))).toBe('mac');
    if (algorithm === 'hmac-sha256') {
      const forged = Buffer.from(
        JSON.stringify({ e: clock + 1e6, p: 'x', r: 'y', v: { admin: true } }),
      ).toString('base64url');
      expect(
        await reasonOf(sealer.open([parts[0], parts[1], parts[2], forged, parts[4]].join('.'), binding)),
      ).toBe('mac');
    }
  });

  it.each([
    ['a number', 42],
    ['an empty string', ''],
    ['another format', 'v1.eyJ9.sig'],
    ['a truncated token', 'm1.g.k1.AAAAAAAAAAAAAAAA.AAAB'],
  ])('refuses %s as malformed', async (_name, token) => {
    expect(await reasonOf(sealer.open(token, binding))).toBe('malformed');
  });

  it("refuses the conformance suite's tampering (a suffix)", async () => {
    expect(['malformed', 'mac']).toContain(
      await reasonOf(sealer.open(`${sealer.seal(1, binding)}-TAMPERED`, binding)),
    );
  });

  it('refuses another spelling of the same bytes (non-canonical base64url)', async () => {
    // Lenient decoders ignore the unused low bits of the last character; find a value whose
    // encoding has such bits, then flip them.
    let token = '';
    for (let size = 0; !token; size++) {
      const candidate = sealer.seal('x'.repeat(size), binding);
      if ((candidate.split('.')[4] ?? '').length % 4 !== 0) token = candidate;
    }
    const parts = token.split('.');
    const body = parts[4] ?? '';
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const respelled = `${body.slice(0, -1)}${alphabet[alphabet.indexOf(body.at(-1) ?? 'A') + 1]}`;
    expect(Buffer.from(respelled, 'base64url')).toEqual(Buffer.from(body, 'base64url'));
    expect(await reasonOf(sealer.open([...parts.slice(0, 4), respelled].join('.'), binding))).toBe(
      'malformed',
    );
  });

  it('maps every refusal to -32602 "Invalid or expired requestState"', async () => {
    const error = await sealer.open('nope', binding).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestStateError);
    expect((error as RequestStateError).toJson()).toEqual({
      code: -32602,
      message: 'Invalid or expired requestState',
      data: { reason: 'invalid_request_state' },
    });
  });

  it('refuses a token sealed with the other algorithm', async () => {
    const other = new RequestStateSealer({
      keyring: new Keyring({ current: k1 }),
      algorithm: algorithm === 'aes-256-gcm' ? 'hmac-sha256' : 'aes-256-gcm',
      now,
    });
    expect(await reasonOf(sealer.open(other.seal(1, binding), binding))).toBe('malformed');
  });
});

describe('key rotation', () => {
  const k1 = key('k1');
  const k2 = key('k2');
  const before = new RequestStateSealer({ keyring: new Keyring({ current: k1 }) });
  const during = new RequestStateSealer({ keyring: new Keyring({ current: k2, previous: [k1] }) });
  const after = new RequestStateSealer({ keyring: new Keyring({ current: k2 }) });

  it('seals with the current key and still opens tokens of a previous key', async () => {
    const old = before.seal('in flight', binding);
    const fresh = during.seal('new', binding);
    expect(fresh.split('.')[2]).toBe('k2');
    await expect(during.open(old, binding)).resolves.toBe('in flight');
    await expect(after.open(fresh, binding)).resolves.toBe('new');
  });

  it('refuses tokens of a retired key', async () => {
    expect(await reasonOf(after.open(before.seal(1, binding), binding))).toBe('key');
  });

  it('refuses a token of an unknown key that reuses a known key id', async () => {
    const impostor = new RequestStateSealer({ keyring: new Keyring({ current: key('k2') }) });
    expect(await reasonOf(after.open(impostor.seal(1, binding), binding))).toBe('mac');
  });
});

describe('single use', () => {
  it('opens a token once and refuses the replay', async () => {
    const sealer = new RequestStateSealer({
      keyring: new Keyring({ current: key('k') }),
      singleUse: new MemoryRedemptionStore(),
    });
    const token = sealer.seal({ grant: 'once' }, binding);
    await expect(sealer.open(token, binding)).resolves.toEqual({ grant: 'once' });
    expect(await reasonOf(sealer.open(token, binding))).toBe('replayed');
  });

  it('does not burn a token presented by someone else', async () => {
    const sealer = new RequestStateSealer({
      keyring: new Keyring({ current: key('k') }),
      singleUse: new MemoryRedemptionStore(),
    });
    const token = sealer.seal(1, binding);
    expect(await reasonOf(sealer.open(token, { ...binding, principal: 'mallory' }))).toBe('principal');
    await expect(sealer.open(token, binding)).resolves.toBe(1);
  });
});

describe('what may be sealed', () => {
  const sealer = new RequestStateSealer({ keyring: new Keyring({ current: key('k') }) });

  it.each([
    [{ accessToken: 'x' }, 'accessToken: token'],
    [{ github: { client_secret: 'x' } }, 'github.client_secret: secret'],
    [{ steps: [{ password: 'x' }] }, 'steps[0].password: password'],
  ])('refuses secret-named properties: %j', (value, named) => {
    expect(() => sealer.seal(value, binding)).toThrow(MrtrUsageError);
    expect(() => sealer.seal(value, binding)).toThrow(named);
  });

  it('seals secret-looking names the classifier is told to allow, or all when allowed', async () => {
    const tuned = new RequestStateSealer({
      keyring: new Keyring({ current: key('k') }),
      sensitiveNames: { allow: ['token budget'] },
    });
    await expect(tuned.open(tuned.seal({ tokenBudget: 3 }, binding), binding)).resolves.toEqual({
      tokenBudget: 3,
    });
    const permissive = new RequestStateSealer({
      keyring: new Keyring({ current: key('k') }),
      secretNames: 'allow',
    });
    expect(() => permissive.seal({ password: 'x' }, binding)).not.toThrow();
  });

  it('refuses undefined, which would not survive JSON', () => {
    expect(() => sealer.seal(undefined, binding)).toThrow(/no state to seal/);
  });

  it('refuses state over the size limit', () => {
    expect(() => sealer.seal('x'.repeat(20_000), binding)).toThrow(/over the 16384-byte limit/);
  });

  it.each<SealingAlgorithm>(['aes-256-gcm', 'hmac-sha256'])(
    'opens the largest state a raised maxStateBytes lets it seal (%s)',
    async (algorithm) => {
      const maxStateBytes = 200_000;
      const large = new RequestStateSealer({
        keyring: new Keyring({ current: key('k') }),
        algorithm,
        maxStateBytes,
      });
      // As close to the limit as the payload's own fields allow.
      let value = 'x'.repeat(maxStateBytes);
      while (value.length > 0) {
        try {
          const token = large.seal(value, binding);
          await expect(large.open(token, binding)).resolves.toBe(value);
          break;
        } catch (error) {
          if (!(error instanceof MrtrUsageError)) throw error;
          value = value.slice(100);
        }
      }
      expect(value.length).toBeGreaterThan(maxStateBytes - 400);
      // Far past what the size allows is still refused without being parsed.
      const token = large.seal(value, binding);
      await expect(reasonOf(large.open(`${token}${'A'.repeat(token.length)}`, binding))).resolves.toBe(
        'malformed',
      );
    },
  );

  it('needs a positive ttl and size limit, and a known algorithm', () => {
    const keyring = new Keyring({ current: key('k') });
    expect(() => new RequestStateSealer({ keyring, ttlSeconds: 0 })).toThrow(RuntimeConfigError);
    expect(() => new RequestStateSealer({ keyring, maxStateBytes: 0 })).toThrow(RuntimeConfigError);
    expect(() => new RequestStateSealer({ keyring, maxStateBytes: Number.NaN })).toThrow(RuntimeConfigError);
    expect(
      () => new RequestStateSealer({ keyring, algorithm: 'rot13' as unknown as SealingAlgorithm }),
    ).toThrow(RuntimeConfigError);
  });
});
