/**
 * `createAuth({ rateLimit: { rules } })` through `auth.handler`: a tightened sign-up, a loosened sign-in, a plugin's
 * GET route, rules counting in the login limiter's storage (a real Redis, shared by two instances), and bad rules.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, serviceAvailable } from '../../../test-support/services.js';
import { createAuth, type CreateAuthOptions } from '../auth.js';
import { signInCounter } from '../plugins/example/sign-in-counter.js';
import { createMemoryAdapter } from '../storage/memory.js';
import { ORIGIN, SECRET, TestClient } from '../testing/fixtures.js';
import { createLoginRateLimiter } from './factories.js';
import { createFixedWindowStorage as createRedisStorage } from './redis-storage.js';
import { createFixedWindowStorage } from './storage.js';
import type { RateLimitConfig, RateLimitRule } from './types.js';

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

const PASSWORD = 'correct horse battery';

function setup(rateLimit: RateLimitConfig, extra: Partial<CreateAuthOptions> = {}) {
  const adapter = createMemoryAdapter();
  const auth = createAuth({
    secret: SECRET,
    baseURL: ORIGIN,
    adapter,
    providers: [],
    logger: { error: () => {}, warn: () => {} },
    emailAndPassword: {},
    rateLimit,
    ...extra,
  });
  const client = (ip: string) => Object.assign(new TestClient(auth), { ip });
  return { auth, adapter, client };
}

const signUp = (c: TestClient, email: string) => c.postJson('/auth/signup', { email, password: PASSWORD });
const codeOf = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;

describe('rateLimit.rules', () => {
  it('tightens /signup: the third sign-up from one IP in the window is refused (429) and creates nothing', async () => {
    const { client, adapter } = setup({ rules: { '/signup': { window: 60, max: 2 } } });
    const c = client('203.0.113.1');
    expect((await signUp(c, 'a@example.com')).status).toBe(200);
    expect((await signUp(c, 'b@example.com')).status).toBe(200);
    const third = await signUp(c, 'c@example.com');
    expect(third.status).toBe(429);
    expect(await codeOf(third)).toBe('RATE_LIMITED');
    expect(third.headers.get('retry-after')).not.toBeNull();
    expect(await adapter.getUserByEmail('c@example.com')).toBeNull();
    // Another client's budget is its own.
    expect((await signUp(client('203.0.113.2'), 'd@example.com')).status).toBe(200);
  });

  it('without a rule, sign-up is not limited this way', async () => {
    const { client } = setup({});
    const c = client('203.0.113.1');
    for (const n of [1, 2, 3]) expect((await signUp(c, `${n}@example.com`)).status).toBe(200);
  });

  it('loosens /signin/:provider: more failed sign-ins per account than the login limiter allows', async () => {
    const wrong = (c: TestClient) =>
      c.postJson('/auth/signin/credentials', { email: 'ada@example.com', password: 'wrong password' });
    const strict = setup({});
    const s = strict.client('203.0.113.3');
    await signUp(s, 'ada@example.com');
    for (let i = 0; i < 5; i++) expect((await wrong(s)).status).toBe(401);
    expect((await wrong(s)).status).toBe(429); // the login limiter: 5 failures per (IP, account)

    const loose = setup({ rules: { '/signin/:provider': { window: 900, max: 8 } } });
    const l = loose.client('203.0.113.3');
    await signUp(l, 'ada@example.com');
    for (let i = 0; i < 8; i++) expect((await wrong(l)).status).toBe(401);
    expect((await wrong(l)).status).toBe(429);
  });

  it("limits a plugin's route, GET included", async () => {
    const { client } = setup({ rules: { '/sign-ins': { window: 60, max: 1 } } }, { plugins: [signInCounter()] });
    const c = client('203.0.113.4');
    expect((await c.request('/auth/sign-ins', { headers: { accept: 'application/json' } })).status).toBe(401);
    expect((await c.request('/auth/sign-ins', { headers: { accept: 'application/json' } })).status).toBe(429);
  });

  it('refuses a rule on a path that is not a route template, or a bad budget, with INVALID_CONFIG', () => {
    const cases: Record<string, RateLimitRule>[] = [
      { '/nope': { window: 60, max: 1 } },
      { '/signin/credentials': { window: 60, max: 1 } },
      { signup: { window: 60, max: 1 } },
      { '/signup/': { window: 60, max: 1 } },
      { '/signup': { window: 60, max: 0 } },
      { '/signup': { window: -1, max: 1 } },
    ];
    for (const rules of cases)
      expect(() => setup({ rules })).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG' }));
  });

  it('counts in the storage the login limiter counts in', async () => {
    const storage = createFixedWindowStorage();
    const rateLimit = { login: createLoginRateLimiter(storage), rules: { '/signup': { window: 60, max: 2 } } };
    const a = setup(rateLimit).client('203.0.113.5');
    const b = setup(rateLimit).client('203.0.113.5');
    expect((await signUp(a, 'a@example.com')).status).toBe(200);
    expect((await signUp(b, 'b@example.com')).status).toBe(200);
    expect((await signUp(a, 'c@example.com')).status).toBe(429);
  });
});

describe.runIf(redisUp)('rateLimit.rules on the secondary storage (Redis)', () => {
  let redis: ReturnType<typeof createClient>;
  const prefix = `test:rules:${randomBytes(6).toString('hex')}`;
  beforeAll(async () => {
    redis = await createClient({ url: REDIS_URL }).connect();
  });
  afterAll(async () => {
    for await (const keys of redis.scanIterator({ MATCH: `${prefix}*` })) if (keys.length) await redis.del(keys);
    await redis.quit();
  });

  it('two instances on one Redis share a rule budget', async () => {
    const secondaryStorage = { wrapAdapter: <T>(a: T) => a, rateLimitStorage: () => createRedisStorage(redis) };
    const rateLimit = { rules: { '/signup': { window: 60, max: 2, prefix } } };
    const a = setup(rateLimit, { secondaryStorage }).client('203.0.113.6');
    const b = setup(rateLimit, { secondaryStorage }).client('203.0.113.6');
    expect((await signUp(a, 'a@example.com')).status).toBe(200);
    expect((await signUp(b, 'b@example.com')).status).toBe(200);
    expect((await signUp(a, 'c@example.com')).status).toBe(429);
    let keys = 0;
    for await (const found of redis.scanIterator({ MATCH: `${prefix}*` })) keys += found.length;
    expect(keys).toBeGreaterThan(0);
  });
});
