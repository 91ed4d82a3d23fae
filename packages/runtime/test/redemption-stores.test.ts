import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  Keyring,
  MemoryRedemptionStore,
  RedisRedemptionStore,
  RequestStateError,
  RequestStateSealer,
  type RedemptionStore,
} from '../src/index.js';
import { useRedis, type RedisClient } from './fixtures/redis.js';

const redisStore = (client: RedisClient, keyPrefix = `test:${randomBytes(4).toString('hex')}:`) =>
  new RedisRedemptionStore({ send: (args) => client.sendCommand(args), keyPrefix });

/** What every store promises. */
function redeemsOnce(makeStore: () => RedemptionStore): void {
  it('redeems an id once', async () => {
    const store = makeStore();
    const until = Date.now() + 60_000;
    expect(await store.redeem('a', until)).toBe(true);
    expect(await store.redeem('a', until)).toBe(false);
    expect(await store.redeem('b', until)).toBe(true);
  });

  it('lets exactly one of many concurrent redemptions win', async () => {
    const store = makeStore();
    const results = await Promise.all(
      Array.from({ length: 25 }, () => store.redeem('race', Date.now() + 60_000)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });
}

describe('RedisRedemptionStore', () => {
  const redis = useRedis();
  redeemsOnce(() => redisStore(redis().client));

  it('expires its records with the token', async () => {
    const store = redisStore(redis().client, 'ttl:');
    const start = Date.now();
    await store.redeem('t', start + 30_000);
    const ttl = await redis().client.sendCommand<number>(['PTTL', 'ttl:t']);
    // What is left of the 30 s after however long the two commands took on this machine.
    expect(ttl).toBeGreaterThanOrEqual(30_000 - (Date.now() - start) - 1);
    expect(ttl).toBeLessThanOrEqual(30_000);
  });

  it('refuses a replay on another instance sharing the keyring and the Redis', async () => {
    const keyring = new Keyring({ current: { id: 'shared', secret: randomBytes(32) } });
    const prefix = `shared:${randomBytes(4).toString('hex')}:`;
    const instanceA = new RequestStateSealer({ keyring, singleUse: redisStore(redis().client, prefix) });
    const instanceB = new RequestStateSealer({
      keyring,
      singleUse: redisStore(await redis().connect(), prefix),
    });
    const binding = {
      principal: 'ada',
      request: { method: 'tools/call', target: 'pay', arguments: { amount: 5 } },
    } as const;
    const token = instanceA.seal({ invoice: 42 }, binding);
    await expect(instanceB.open(token, binding)).resolves.toEqual({ invoice: 42 });
    const replay = await instanceA.open(token, binding).catch((error: unknown) => error);
    expect(replay).toBeInstanceOf(RequestStateError);
    expect((replay as RequestStateError).reason).toBe('replayed');
  });
});

describe('MemoryRedemptionStore', () => {
  redeemsOnce(() => new MemoryRedemptionStore());

  it('forgets expired records when it sweeps', async () => {
    let now = 0;
    const store = new MemoryRedemptionStore({ now: () => now, sweepIntervalMs: 10 });
    await store.redeem('old', 5);
    now = 20;
    await store.redeem('new', 100);
    expect(store.size).toBe(1);
    expect(await store.redeem('old', 100)).toBe(true);
  });
});
