import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { REDIS_URL, serviceAvailable } from '../../../test-support/services.js';
import { createLoginRateLimiter, type NodeRedisClientLike } from '../rate-limit.js';
import {
  createFixedWindowStorage,
  createSlidingWindowStorage,
  upstashRedisFromNodeRedis,
} from '../rate-limit-upstash.js';
import { scriptSha } from './script-flags.js';

type Client = ReturnType<typeof createClient>;

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

const prefix = `test:rate-limit:${randomBytes(6).toString('hex')}`;
let n = 0;
const fresh = () => `${prefix}:${++n}`;
const anonymous = () => new Request('http://app.test/auth/callback/credentials', { method: 'POST' });

async function deleteKeys(client: Client, pattern: string): Promise<void> {
  for await (const keys of client.scanIterator({ MATCH: pattern, COUNT: 500 })) if (keys.length) await client.del(keys);
}

describe.runIf(redisUp)('Redis through the node-redis bridge', () => {
  let client: Client;
  let second: Client;
  beforeAll(async () => {
    client = await createClient({ url: REDIS_URL }).connect();
    second = await createClient({ url: REDIS_URL }).connect();
  });
  afterAll(async () => {
    await deleteKeys(client, `${prefix}*`);
    await client.quit();
    await second.quit();
  });
  afterEach(() => vi.useRealTimers());

  it.each([
    ['fixed', createFixedWindowStorage],
    ['sliding', createSlidingWindowStorage],
  ] as const)(
    '%s window: attempt() counts failures per (IP, account) in Redis, and a success resets them',
    async (_name, make) => {
      const p = fresh();
      const login = createLoginRateLimiter(make(client), { prefix: p, limit: 2, ipLimit: 100, window: 60 });
      const fail = async (ip: string) => {
        const a = await login.attempt(anonymous(), { ip, identifier: 'ada@example.com' });
        if (a.result.success) await a.failed();
        return a.result.success;
      };
      expect([await fail('192.0.2.5'), await fail('192.0.2.5'), await fail('192.0.2.5')]).toEqual([true, true, false]);
      // Another IP is not refused; a success there resets only its own pair.
      const elsewhere = await login.attempt(anonymous(), { ip: '198.51.100.5', identifier: 'ada@example.com' });
      expect(elsewhere.result.success).toBe(true);
      await elsewhere.succeeded();
      // A second process sharing the prefix sees the same counts.
      const other = createLoginRateLimiter(make(second), { prefix: p, limit: 2, ipLimit: 100, window: 60 });
      expect(
        (await other.attempt(anonymous(), { ip: '192.0.2.5', identifier: 'ada@example.com' })).result.success,
      ).toBe(false);
      const keys = await client.keys(`${p}:failures:*`);
      expect(keys.length).toBeGreaterThan(0);
    },
  );

  it.each([
    ['fixed', createFixedWindowStorage],
    ['sliding', createSlidingWindowStorage],
  ] as const)('%s window: exact counts, and the counters live in Redis', async (_name, make) => {
    const p = fresh();
    const login = createLoginRateLimiter(make(client), { prefix: p, limit: 3, window: 60 });
    const seen = [];
    for (let i = 0; i < 5; i++) seen.push(await login.check(anonymous(), { ip: '192.0.2.1' }));
    expect(seen.map((r) => [r.success, r.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
      [false, 0],
    ]);
    expect(seen[3]!.response!.status).toBe(429);
    expect(seen[3]!.reset).toBeGreaterThan(0);
    expect(seen[3]!.reset).toBeLessThanOrEqual(60);
    const keys = await client.keys(`${p}:ip:192.0.2.1:*`);
    expect(keys.length).toBe(1);
    expect(await client.pTTL(keys[0]!)).toBeGreaterThan(0);
  });

  it('sliding window weighs the previous window (Date faked, Redis real)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const W = 60_000;
    const start = Math.ceil(Date.now() / W) * W + 10 * W;
    vi.setSystemTime(start);
    const login = createLoginRateLimiter(createSlidingWindowStorage(client), {
      prefix: fresh(),
      limit: 10,
      window: W / 1000,
    });
    for (let i = 0; i < 10; i++) expect((await login.check(anonymous(), { ip: '192.0.2.1' })).success).toBe(true);
    vi.setSystemTime(start + W + W / 4);
    const next = [];
    for (let i = 0; i < 4; i++) next.push((await login.check(anonymous(), { ip: '192.0.2.1' })).success);
    expect(next).toEqual([true, true, true, false]);
  });

  it('EVALSHA keeps working: after the first call, only EVALSHA of the rewritten script is sent', async () => {
    const sent: string[] = [];
    const spy: NodeRedisClientLike = {
      sendCommand: (args, options) => {
        sent.push(`${args[0]} ${args[1]?.slice(0, 12)}`);
        return client.sendCommand(args, options);
      },
      multi: () => client.multi(),
    };
    const login = createLoginRateLimiter(createFixedWindowStorage(spy), { prefix: fresh(), limit: 100, window: 60 });
    await login.check(anonymous(), { ip: '192.0.2.1' });
    sent.length = 0;
    for (let i = 0; i < 5; i++) await login.check(anonymous(), { ip: '192.0.2.1' });
    expect(sent.length).toBe(5);
    expect(sent.every((c) => c.toLowerCase().startsWith('evalsha '))).toBe(true);
  });

  it('500 concurrent checks on one key with limit 5: exactly 5 succeed', async () => {
    for (const make of [createFixedWindowStorage, createSlidingWindowStorage]) {
      const login = createLoginRateLimiter(make(client), { prefix: fresh(), limit: 5, window: 60 });
      const results = await Promise.all(
        Array.from({ length: 500 }, () => login.check(anonymous(), { ip: '198.51.100.7' })),
      );
      expect(results.filter((r) => r.success).length).toBe(5);
      expect(results.filter((r) => r.code === 'RATE_LIMITED').length).toBe(495);
    }
  });

  it('two limiter instances (two processes, two connections) share one budget', async () => {
    const p = fresh();
    const a = createLoginRateLimiter(createFixedWindowStorage(client), { prefix: p, limit: 4, window: 60 });
    const b = createLoginRateLimiter(createFixedWindowStorage(second), { prefix: p, limit: 4, window: 60 });
    const body = () =>
      new Request('http://x/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"email":"shared@example.com"}',
      });
    for (let i = 0; i < 3; i++) expect((await a.check(body(), { ip: `192.0.2.${i}` })).success).toBe(true);
    expect(await b.check(body(), { ip: '192.0.2.50' })).toMatchObject({ success: true, remaining: 0 });
    expect(await b.check(body(), { ip: '192.0.2.51' })).toMatchObject({ success: false, scope: 'account' });
    expect(await a.check(body(), { ip: '192.0.2.52' })).toMatchObject({ success: false, scope: 'account' });
  });

  it('forwards pipelines, MULTI/EXEC and SCRIPT LOAD', async () => {
    const redis = upstashRedisFromNodeRedis(client);
    const k = fresh();
    const pipe = redis.pipeline();
    pipe.set(k, '1');
    pipe.incr(k);
    pipe.hset(k, { a: 1 });
    pipe.get(k);
    const replies = await pipe.exec({ keepErrors: true });
    expect(replies.map((r) => r.result ?? r.error?.slice(0, 9))).toEqual(['OK', 2, 'WRONGTYPE', 2]);

    const tx = redis.multi();
    tx.incr(k);
    tx.incr(k);
    expect(await tx.exec()).toEqual([3, 4]);

    const script = '#!lua flags=allow-key-locking,no-writes\nreturn redis.call("GET", KEYS[1])';
    const sha = await redis.scriptLoad(script);
    expect(sha).toBe(await scriptSha(script));
    expect(await redis.evalsha(sha, [k], [])).toBe(4);
    expect(await redis.eval(script, [k], [])).toBe(4);
    await expect(redis.evalsha('0'.repeat(40), [], [])).rejects.toThrow(/NOSCRIPT/);
  });
});
