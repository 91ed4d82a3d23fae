import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MemoryUrlFlowStore, RedisUrlFlowStore, type UrlFlowStore } from '../../src/url-mode/index.js';
import { useRedis } from '../fixtures/redis.js';

const prefix = () => `stores:${randomBytes(4).toString('hex')}:`;

/** What every store promises. */
function storesAndRedeems(makeStore: () => UrlFlowStore): void {
  it('reads back what it stored, and the latest write wins', async () => {
    const store = makeStore();
    const until = Date.now() + 60_000;
    expect(await store.get('flow:a')).toBeUndefined();
    await store.put('flow:a', '{"n":1}', until);
    await store.put('flow:b', '{"n":2}', until);
    await store.put('flow:a', '{"n":3}', until);
    expect(await store.get('flow:a')).toBe('{"n":3}');
    expect(await store.get('flow:b')).toBe('{"n":2}');
  });

  it('redeems an id once, whatever records it holds under the same name', async () => {
    const store = makeStore();
    const until = Date.now() + 60_000;
    await store.put('ticket:x', 'record', until);
    const results = await Promise.all(Array.from({ length: 10 }, () => store.redeem('ticket:x', until)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await store.get('ticket:x')).toBe('record');
  });
}

describe('MemoryUrlFlowStore', () => {
  storesAndRedeems(() => new MemoryUrlFlowStore());

  it('forgets a record once it expires, and sweeps expired records away', async () => {
    let now = 1_000;
    const store = new MemoryUrlFlowStore({ now: () => now, sweepIntervalMs: 10 });
    await store.put('old', 'v', 1_005);
    expect(await store.get('old')).toBe('v');
    now = 1_005;
    expect(await store.get('old')).toBeUndefined();
    now = 1_020;
    await store.put('new', 'v', 2_000);
    expect(store.size).toBe(1);
  });
});

describe('RedisUrlFlowStore', () => {
  const redis = useRedis();
  storesAndRedeems(
    () => new RedisUrlFlowStore({ send: (args) => redis().client.sendCommand(args), keyPrefix: prefix() }),
  );

  it('writes records that expire in Redis with their flow, under its prefix', async () => {
    const keyPrefix = prefix();
    const store = new RedisUrlFlowStore({ send: (args) => redis().client.sendCommand(args), keyPrefix });
    await store.put('flow:f', 'v', Date.now() + 30_000);
    await store.redeem('ticket:t', Date.now() + 30_000);
    const ttl = await redis().client.sendCommand<number>(['PTTL', `${keyPrefix}flow:f`]);
    expect(ttl).toBeGreaterThan(25_000);
    expect(ttl).toBeLessThanOrEqual(30_000);
    const keys = await redis().client.sendCommand<string[]>(['KEYS', `${keyPrefix}*`]);
    expect(keys.sort()).toEqual([`${keyPrefix}flow:f`, `${keyPrefix}redeemed:ticket:t`]);
  });

  it('shares records and redemptions between instances on the same Redis', async () => {
    const keyPrefix = prefix();
    const one = new RedisUrlFlowStore({ send: (args) => redis().client.sendCommand(args), keyPrefix });
    const other = await redis().connect();
    const two = new RedisUrlFlowStore({ send: (args) => other.sendCommand(args), keyPrefix });
    await one.put('done:f', 'completed', Date.now() + 60_000);
    expect(await two.get('done:f')).toBe('completed');
    expect(await two.redeem('callback:s', Date.now() + 60_000)).toBe(true);
    expect(await one.redeem('callback:s', Date.now() + 60_000)).toBe(false);
  });
});
