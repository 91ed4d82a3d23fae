import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/state/canonical-json.js';
import {
  findSecretNames,
  Keyring,
  MemoryRedemptionStore,
  RedisRedemptionStore,
  RequestStateError,
  RequestStateSealer,
  type RedemptionStore,
  type RequestStateBinding,
  type SealingAlgorithm,
  type StateKey,
} from '../src/index.js';
import { useRedis } from './fixtures/redis.js';

// Property tests of the requestState invariants, 1,000 runs each.
const RUNS = { numRuns: 1000 };
const ALGORITHMS: SealingAlgorithm[] = ['aes-256-gcm', 'hmac-sha256'];
const key = (id: string): StateKey => ({ id, secret: randomBytes(32) });

const method = fc.constantFrom('tools/call' as const, 'prompts/get' as const, 'resources/read' as const);
const binding: fc.Arbitrary<RequestStateBinding> = fc.record({
  principal: fc.string(),
  request: fc.record({ method, target: fc.string(), arguments: fc.jsonValue() }),
});
/** JSON values a handler could seal: no secret-named properties. */
const state = fc.jsonValue().filter((value) => findSecretNames(value).length === 0);

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'opened';
  } catch (error) {
    if (error instanceof RequestStateError) return error.reason;
    throw error;
  }
}

const BASE64URL_AND_DOT = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.'];

/** Any change to a string: replace, insert or delete a character, truncate, or append. */
const edit = fc.oneof(
  fc.record({
    kind: fc.constant('replace' as const),
    at: fc.nat(),
    by: fc.constantFrom(...BASE64URL_AND_DOT),
  }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    by: fc.constantFrom(...BASE64URL_AND_DOT),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('append' as const), by: fc.string({ minLength: 1 }) }),
);

type Edit = typeof edit extends fc.Arbitrary<infer T> ? T : never;

function apply(token: string, change: Edit): string {
  const at = 'at' in change ? change.at % token.length : 0;
  switch (change.kind) {
    case 'replace':
      return `${token.slice(0, at)}${change.by}${token.slice(at + 1)}`;
    case 'insert':
      return `${token.slice(0, at)}${change.by}${token.slice(at)}`;
    case 'delete':
      return `${token.slice(0, at)}${token.slice(at + 1)}`;
    case 'truncate':
      return token.slice(0, at);
    case 'append':
      return `${token}${change.by}`;
  }
}

describe.each(ALGORITHMS)('requestState sealed with %s', (algorithm) => {
  const k1 = key('k1');
  const sealer = new RequestStateSealer({ keyring: new Keyring({ current: k1 }), algorithm });

  it('opens what it sealed, for the same principal and request', async () => {
    await fc.assert(
      fc.asyncProperty(state, binding, async (value, bound) => {
        const opened = await sealer.open(sealer.seal(value, bound), bound);
        expect(canonicalJson(opened)).toBe(canonicalJson(value));
      }),
      RUNS,
    );
  });

  it('rejects any change to a sealed token', async () => {
    await fc.assert(
      fc.asyncProperty(state, binding, edit, async (value, bound, change) => {
        const token = sealer.seal(value, bound);
        const changed = apply(token, change);
        fc.pre(changed !== token);
        expect(await refusal(sealer.open(changed, bound))).not.toBe('opened');
      }),
      RUNS,
    );
  });

  it('never opens for another principal', async () => {
    await fc.assert(
      fc.asyncProperty(state, binding, fc.string(), async (value, bound, other) => {
        fc.pre(other !== bound.principal);
        const token = sealer.seal(value, bound);
        expect(await refusal(sealer.open(token, { ...bound, principal: other }))).toBe('principal');
      }),
      RUNS,
    );
  });

  it('never opens for another request', async () => {
    const otherRequest = fc.record({ method, target: fc.string(), arguments: fc.jsonValue() });
    await fc.assert(
      fc.asyncProperty(state, binding, otherRequest, async (value, bound, request) => {
        // Absent and null arguments mean {} (a tool called without arguments), as in requestDigest.
        fc.pre(
          canonicalJson([request.method, request.target, request.arguments ?? {}]) !==
            canonicalJson([bound.request.method, bound.request.target, bound.request.arguments ?? {}]),
        );
        const token = sealer.seal(value, bound);
        expect(await refusal(sealer.open(token, { ...bound, request }))).toBe('request');
      }),
      RUNS,
    );
  });

  it('never opens after its expiry', async () => {
    await fc.assert(
      fc.asyncProperty(state, binding, fc.integer({ min: 1, max: 10 ** 9 }), async (value, bound, late) => {
        let now = 1_000_000;
        const clocked = new RequestStateSealer({
          keyring: new Keyring({ current: k1 }),
          algorithm,
          ttlSeconds: 60,
          now: () => now,
        });
        const token = clocked.seal(value, bound);
        now += 60_000 + late;
        expect(await refusal(clocked.open(token, bound))).toBe('expired');
      }),
      RUNS,
    );
  });

  it('never opens after its key is retired', async () => {
    const rotated = new RequestStateSealer({ keyring: new Keyring({ current: key('k2') }), algorithm });
    await fc.assert(
      fc.asyncProperty(state, binding, async (value, bound) => {
        expect(await refusal(rotated.open(sealer.seal(value, bound), bound))).toBe('key');
      }),
      RUNS,
    );
  });
});

describe.each<[string, 'memory' | 'redis']>([
  ['the memory store', 'memory'],
  ['the Redis store', 'redis'],
])('single use with %s', (_name, storeKind) => {
  const redis = storeKind === 'redis' ? useRedis() : undefined;
  const makeStore = (): RedemptionStore =>
    redis === undefined
      ? new MemoryRedemptionStore()
      : new RedisRedemptionStore({ send: (args) => redis().client.sendCommand(args) });

  it('rejects every replay', async () => {
    const sealer = new RequestStateSealer({
      keyring: new Keyring({ current: key('k') }),
      singleUse: makeStore(),
    });
    await fc.assert(
      fc.asyncProperty(state, binding, async (value, bound) => {
        const token = sealer.seal(value, bound);
        expect(await refusal(sealer.open(token, bound))).toBe('opened');
        expect(await refusal(sealer.open(token, bound))).toBe('replayed');
      }),
      RUNS,
    );
  });
});
