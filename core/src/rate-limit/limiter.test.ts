import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthConfigError } from '../errors.js';
import {
  createEmailVerificationRateLimiter,
  createFixedWindowStorage,
  createLoginRateLimiter,
  createPasswordResetRateLimiter,
  createSlidingWindowStorage,
  defaultLoginLimiter,
  type RateLimitStorage,
} from '../rate-limit.js';
import { createFixedWindowStorage as createRedisFixedWindowStorage } from '../rate-limit-upstash.js';

const silent = { warn: vi.fn(), error: vi.fn() };
afterEach(() => {
  vi.useRealTimers();
  silent.warn.mockClear();
  silent.error.mockClear();
});

const form = (fields: Record<string, string>) =>
  new Request('http://app.test/auth/callback/credentials', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
const json = (fields: Record<string, unknown>) =>
  new Request('http://app.test/auth/callback/credentials', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fields),
  });

describe('login limiter', () => {
  it('has the documented defaults and refuses the sixth attempt with a 429', async () => {
    const login = defaultLoginLimiter();
    expect([login.name, login.limit, login.window]).toEqual(['login', 5, 900]);
    for (let i = 0; i < 5; i++)
      expect((await login.check(form({ email: 'a@b.test', password: 'x' }), { ip: '192.0.2.1' })).success).toBe(true);
    const refused = await login.check(form({ email: 'a@b.test', password: 'x' }), { ip: '192.0.2.1' });
    expect(refused).toMatchObject({ success: false, limit: 5, remaining: 0, code: 'RATE_LIMITED', scope: 'ip' });
    expect(refused.reset).toBeGreaterThan(0);
    expect(refused.reset).toBeLessThanOrEqual(900);
    expect(refused.retryAfter).toBe(refused.reset);
    const res = refused.response!;
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe(String(refused.reset));
    expect(res.headers.get('ratelimit-limit')).toBe('5');
    expect(res.headers.get('ratelimit-remaining')).toBe('0');
    expect(res.headers.get('ratelimit-reset')).toBe(String(refused.reset));
    expect(res.headers.get('ratelimit-policy')).toBe('5;w=900');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ error: { code: 'RATE_LIMITED', message: expect.any(String) } });
    expect(refused.headers.get('retry-after')).toBe(String(refused.reset));
  });

  it('gives the account its own budget: many IPs cannot hammer one account', async () => {
    const login = createLoginRateLimiter(createFixedWindowStorage(), { limit: 3, window: 60 });
    for (let i = 0; i < 3; i++)
      expect((await login.check(json({ email: 'Victim@Example.com' }), { ip: `198.51.100.${i}` })).success).toBe(true);
    // Normalised: case, surrounding space and width variants are the same account.
    const r = await login.check(json({ email: '  VICTIM@example.COM ' }), { ip: '198.51.100.99' });
    expect(r).toMatchObject({ success: false, scope: 'account', code: 'RATE_LIMITED' });
    expect((await login.check(json({ email: 'other@example.com' }), { ip: '198.51.100.99' })).success).toBe(true);
  });

  it('gives the IP its own budget: one IP cannot spray many accounts, and refused IPs spend no account budget', async () => {
    const login = createLoginRateLimiter(createFixedWindowStorage(), { limit: 2, window: 60 });
    expect((await login.check(form({ username: 'u1' }), { ip: '203.0.113.5' })).success).toBe(true);
    expect((await login.check(form({ username: 'u2' }), { ip: '203.0.113.5' })).success).toBe(true);
    for (let i = 3; i < 10; i++)
      expect((await login.check(form({ username: 'u3' }), { ip: '203.0.113.5' })).scope).toBe('ip');
    // u3 was never counted while its requests were refused by IP.
    expect((await login.check(form({ username: 'u3' }), { ip: '203.0.113.6' })).remaining).toBe(1);
  });

  it('groups IPv6 clients per /64', async () => {
    const login = createLoginRateLimiter(createFixedWindowStorage(), { limit: 1, window: 60 });
    expect((await login.check(new Request('http://x/'), { ip: '2001:db8:1:2::1' })).success).toBe(true);
    expect((await login.check(new Request('http://x/'), { ip: '2001:db8:1:2:ffff::9' })).success).toBe(false);
    expect((await login.check(new Request('http://x/'), { ip: '2001:db8:1:3::1' })).success).toBe(true);
  });

  it('reads the identifier from a clone: the handler still gets the body (JSON, urlencoded, multipart)', async () => {
    const login = createLoginRateLimiter(createFixedWindowStorage(), { limit: 1, window: 60 });
    const multipart = new FormData();
    multipart.set('email', 'm@example.com');
    const requests = [
      json({ email: 'j@example.com', password: 'p' }),
      form({ email: 'f@example.com', password: 'p' }),
      new Request('http://x/', { method: 'POST', body: multipart }),
    ];
    for (const request of requests) {
      expect((await login.check(request)).scope).toBe('account');
      expect(request.bodyUsed).toBe(false);
      expect((await request.clone().text()).length).toBeGreaterThan(0);
      expect((await login.check(request)).success).toBe(false);
    }
  });

  it('uses info.identifier instead of the body when given', async () => {
    const login = createLoginRateLimiter(createFixedWindowStorage(), { limit: 1, window: 60 });
    await login.check(new Request('http://x/'), { identifier: 'Someone@Example.com' });
    expect((await login.check(json({ email: 'someone@example.com' }))).success).toBe(false);
  });

  it('reads X-Forwarded-For only when trustProxy is set', async () => {
    const spoofed = (xff: string) => new Request('http://x/', { headers: { 'x-forwarded-for': xff } });
    const direct = createLoginRateLimiter(createFixedWindowStorage(), { limit: 1, window: 60 });
    await direct.check(spoofed('192.0.2.1'), { ip: '10.0.0.1' });
    expect((await direct.check(spoofed('192.0.2.2'), { ip: '10.0.0.1' })).success).toBe(false);
    const proxied = createLoginRateLimiter(createFixedWindowStorage(), {
      limit: 1,
      window: 60,
      trustProxy: ['10.0.0.0/8'],
    });
    await proxied.check(spoofed('192.0.2.1'), { ip: '10.0.0.1' });
    expect((await proxied.check(spoofed('192.0.2.2'), { ip: '10.0.0.1' })).success).toBe(true);
    expect((await proxied.check(spoofed('192.0.2.1'), { ip: '10.9.9.9' })).success).toBe(false);
  });

  it('does not count a request with neither IP nor identifier, and says so once', async () => {
    const login = createLoginRateLimiter(createFixedWindowStorage(), { limit: 1, window: 60, logger: silent });
    for (let i = 0; i < 3; i++) expect((await login.check(new Request('http://x/'))).success).toBe(true);
    expect(silent.warn).toHaveBeenCalledTimes(1);
  });

  it('rolls over: refused until the reset, allowed again after it (fake timers)', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(900_000 * 1000);
    const login = defaultLoginLimiter();
    for (let i = 0; i < 5; i++) await login.check(form({ email: 'a@b.test' }), { ip: '192.0.2.1' });
    const refused = await login.check(form({ email: 'a@b.test' }), { ip: '192.0.2.1' });
    expect(refused.reset).toBe(900);
    vi.advanceTimersByTime(899_000);
    expect(await login.check(form({ email: 'a@b.test' }), { ip: '192.0.2.1' })).toMatchObject({
      success: false,
      reset: 1,
    });
    vi.advanceTimersByTime(1_000);
    expect(await login.check(form({ email: 'a@b.test' }), { ip: '192.0.2.1' })).toMatchObject({
      success: true,
      remaining: 4,
      reset: 900,
    });
  });
});

describe('other limiters', () => {
  it('have the documented defaults', () => {
    const reset = createPasswordResetRateLimiter(createSlidingWindowStorage());
    const verify = createEmailVerificationRateLimiter(createFixedWindowStorage());
    expect([reset.name, reset.limit, reset.window]).toEqual(['password-reset', 3, 3600]);
    expect([verify.name, verify.limit, verify.window]).toEqual(['email-verification', 5, 3600]);
  });

  it('do not share budgets with the login limiter on one storage', async () => {
    const storage = createFixedWindowStorage();
    const login = createLoginRateLimiter(storage, { limit: 1, window: 60 });
    const reset = createPasswordResetRateLimiter(storage, { limit: 1, window: 60 });
    expect((await login.check(new Request('http://x/'), { ip: '192.0.2.1' })).success).toBe(true);
    expect((await reset.check(new Request('http://x/'), { ip: '192.0.2.1' })).success).toBe(true);
  });
});

describe('configuration errors', () => {
  const storage = createFixedWindowStorage();
  it.each([
    [{ limit: 0 }, /limit must be a positive integer \(got 0\)/],
    [{ limit: 1.5 }, /limit must be a positive integer/],
    [{ limit: Number.NaN }, /limit must be a positive integer/],
    [{ window: 0 }, /window must be a positive number of seconds \(got 0\)/],
    [{ window: -1 }, /window must be a positive number/],
    [{ window: Number.POSITIVE_INFINITY }, /window must be a positive number/],
    [{ window: 0.0001 }, /window must be at least 0.001 seconds/],
    [{ timeout: 0 }, /timeout must be a positive number of milliseconds/],
    [{ trustProxy: -1 }, /trustProxy must be a hop count/],
    [{ trustProxy: ['10.0.0.0/33'] }, /trustProxy entry "10.0.0.0\/33" is not a CIDR/],
    [{ trustProxy: ['not an ip'] }, /is not a CIDR/],
    [{ failOpen: 'yes' as unknown as boolean }, /failOpen must be a boolean/],
  ])('%o is refused at creation', (options, message) => {
    const create = () => createLoginRateLimiter(storage, options);
    expect(create).toThrow(AuthConfigError);
    expect(create).toThrow(message);
    try {
      create();
    } catch (e) {
      expect((e as AuthConfigError).code).toBe('INVALID_CONFIG');
      expect((e as Error).message).toContain('createLoginRateLimiter');
    }
  });

  it('refuses a missing storage and unknown namespaces', () => {
    expect(() => createLoginRateLimiter(undefined as unknown as RateLimitStorage)).toThrow(/must be a storage/);
    expect(() => createRedisFixedWindowStorage({} as never)).toThrow(/namespace must be omitted/);
    expect(() => createSlidingWindowStorage(undefined, { maxEntries: 0 })).toThrow(
      /maxEntries must be a positive integer/,
    );
  });

  it('counts in memory only: a Redis client is refused, naming the subpath that takes it', () => {
    const redisLike = { sendCommand: () => {}, multi: () => {} };
    for (const create of [createFixedWindowStorage, createSlidingWindowStorage]) {
      expect(() => create(redisLike as never)).toThrow(AuthConfigError);
      expect(() => create(redisLike as never)).toThrow(/@framework\/auth\/rate-limit\/upstash/);
    }
    expect(createRedisFixedWindowStorage(redisLike as never).backend).toBe('node-redis');
  });
});

describe('fail policy (storage errors and hangs)', () => {
  const failing: RateLimitStorage = {
    algorithm: 'fixed-window',
    backend: 'memory',
    counter: () => {
      const refuse = () => Promise.reject(new Error('ECONNREFUSED'));
      return { consume: refuse, reset: refuse };
    },
  };
  const hanging: RateLimitStorage = {
    ...failing,
    counter: () => {
      const hang = () => new Promise<never>(() => {});
      return { consume: hang, reset: hang };
    },
  };

  it('fails closed by default: 503 RATE_LIMIT_UNAVAILABLE, logged', async () => {
    const login = createLoginRateLimiter(failing, { logger: silent });
    const r = await login.check(new Request('http://x/'), { ip: '192.0.2.1' });
    expect(r).toMatchObject({ success: false, code: 'RATE_LIMIT_UNAVAILABLE' });
    expect(r.response!.status).toBe(503);
    expect(await r.response!.json()).toEqual({
      error: { code: 'RATE_LIMIT_UNAVAILABLE', message: expect.any(String) },
    });
    expect(silent.error).toHaveBeenCalledWith(expect.stringContaining('ECONNREFUSED'));
  });

  it('fails open when asked: allowed, with a warning', async () => {
    const login = createLoginRateLimiter(failing, { failOpen: true, logger: silent });
    const r = await login.check(new Request('http://x/'), { ip: '192.0.2.1' });
    expect(r).toMatchObject({ success: true, code: 'RATE_LIMIT_UNAVAILABLE' });
    expect(r.response).toBeUndefined();
    expect(silent.warn).toHaveBeenCalledWith(expect.stringContaining('failOpen: true'));
  });

  it('never waits past the timeout', async () => {
    for (const failOpen of [false, true]) {
      const login = createLoginRateLimiter(hanging, { failOpen, timeout: 50, logger: silent });
      const started = performance.now();
      const r = await login.check(new Request('http://x/'), { ip: '192.0.2.1' });
      expect(performance.now() - started).toBeLessThan(1_500); // a hanging store would never answer; the slack absorbs a loaded CI machine
      expect(r.success).toBe(failOpen);
    }
  });

  it('survives a throwing logger', async () => {
    const login = createLoginRateLimiter(failing, {
      logger: {
        warn: () => {},
        error: () => {
          throw new Error('log down');
        },
      },
    });
    expect((await login.check(new Request('http://x/'), { ip: '192.0.2.1' })).success).toBe(false);
  });
});
