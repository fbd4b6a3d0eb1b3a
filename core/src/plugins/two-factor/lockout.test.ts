/**
 * The per-user failure budget of `twoFactor()` (`lockout`): an attacker who holds the password guesses codes from
 * many IP addresses (each behind the app's trusted proxy) and many challenges; the budget is the user's, so it trips
 * anyway, the user is told once, and even the right code waits for the window to end. In memory (fake clock) and in
 * Redis shared by two instances.
 */
import { randomBytes } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { createClient } from 'redis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REDIS_URL, serviceAvailable } from '../../../../test-support/services.js';
import { createAuth, type CreateAuthOptions } from '../../auth.js';
import { passwordAccounts } from '../../password-accounts.js';
import { credentials } from '../../providers/credentials.js';
import type { AuthEvent } from '../../events.js';
import { createLoginRateLimiter } from '../../rate-limit.js';
import { createFixedWindowStorage, createSlidingWindowStorage } from '../../rate-limit-upstash.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import { EMAIL, PASSWORD, SECRET, TestClient, makeFixture, type Fixture } from '../../testing/fixtures.js';
import type { RateLimitStorage } from '../../rate-limit/types.js';
import type { TwoFactorLockoutOptions } from './lockout.js';
import { twoFactor } from './plugin.js';
import { createMemoryTwoFactorStorage } from './storage/memory.js';
import type { TwoFactorStorage } from './types.js';

afterEach(() => vi.useRealTimers());

const T0 = Date.UTC(2026, 10, 24, 12, 0, 0);
const at = (ms: number) => vi.setSystemTime(ms);
/** The app's reverse proxy: the TCP peer of every request; the client is the last `X-Forwarded-For` entry. */
const PROXY = '10.0.0.1';

async function setup(
  lockout?: TwoFactorLockoutOptions | false,
  shared: { storage?: TwoFactorStorage } & Partial<CreateAuthOptions> = {},
) {
  const notices: AuthEvent<'onTwoFactorLocked'>[] = [];
  const { storage = createMemoryTwoFactorStorage(), ...overrides } = shared;
  const f = await makeFixture('database', {
    plugins: [twoFactor({ storage, ...(lockout !== undefined ? { lockout } : {}) })],
    rateLimit: { login: createLoginRateLimiter(createFixedWindowStorage(), { trustProxy: 1 }) },
    events: { onTwoFactorLocked: (event) => void notices.push(event) },
    ...overrides,
  });
  await f.adapter.updateUser(f.userId, { emailVerified: new Date() });
  return { ...f, storage, notices };
}

/** A client at `ip`, behind the trusted proxy. */
function from(f: Fixture, ip: string) {
  const c = f.client();
  c.ip = PROXY;
  const xff = { 'x-forwarded-for': ip };
  return {
    c,
    signIn: () => c.postJson('/auth/callback/credentials', { email: EMAIL, password: PASSWORD }, xff),
    verify: (body: Record<string, string>) => c.postJson('/auth/two-factor/verify', body, xff),
  };
}

async function enrol(f: Fixture) {
  const { c } = from(f, '203.0.113.200');
  await c.signIn();
  const res = await c.postJson('/auth/two-factor/enable', { password: PASSWORD });
  const { totpURI, backupCodes } = (await res.json()) as { totpURI: string; backupCodes: string[] };
  const totp = OTPAuth.URI.parse(totpURI) as OTPAuth.TOTP;
  expect(
    (await c.postJson('/auth/two-factor/confirm', { code: totp.generate({ timestamp: Date.now() }) })).status,
  ).toBe(200);
  return { c, totp, backupCodes };
}

const code = (totp: OTPAuth.TOTP) => totp.generate({ timestamp: Date.now() });
/** A code that is not valid now (the right one, each digit shifted). */
const wrong = (totp: OTPAuth.TOTP) => code(totp).replace(/\d/g, (d) => String((Number(d) + 5) % 10));
const errorCode = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;

/** One wrong code from a fresh challenge at `ip`. */
async function guess(f: Fixture, ip: string, totp: OTPAuth.TOTP) {
  const attacker = from(f, ip);
  const first = await attacker.signIn();
  expect(await errorCode(first)).toBe('TWO_FACTOR_REQUIRED');
  return attacker.verify({ code: wrong(totp) });
}

describe('the per-user failure budget', () => {
  it('trips on 10 wrong codes from 10 IPs and 10 challenges, tells the user once, and holds the right code until the window ends', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(T0);
    const f = await setup();
    const { totp, backupCodes } = await enrol(f);
    at(T0 + 60_000);
    for (let i = 1; i <= 10; i += 1) {
      const res = await guess(f, `198.51.100.${i}`, totp);
      expect(res.status).toBe(401);
      expect(await errorCode(res)).toBe('TWO_FACTOR_INVALID_CODE');
      expect(f.notices).toHaveLength(i === 10 ? 1 : 0);
    }
    const notice = f.notices[0]!;
    expect(notice.user.id).toBe(f.userId);
    expect(notice.failures).toBe(10);
    expect(notice.until.getTime()).toBe(T0 + 900_000);

    // Locked: the owner, from a new IP with a new challenge and the right code, waits too.
    at(T0 + 120_000);
    const owner = from(f, '192.0.2.77');
    await owner.signIn();
    const refused = await owner.verify({ code: code(totp) });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBe(780);
    expect(await errorCode(refused)).toBe('TWO_FACTOR_LOCKED');
    expect(await owner.c.session()).toBeNull();
    expect((await owner.verify({ backupCode: backupCodes[0]! })).status).toBe(429);
    expect(await errorCode(await guess(f, '198.51.100.11', totp))).toBe('TWO_FACTOR_LOCKED');
    // A browser gets the code page again with the message, 429 and Retry-After.
    const form = await owner.c.postForm(
      '/auth/two-factor/verify',
      { code: code(totp) },
      { 'x-forwarded-for': '192.0.2.77' },
    );
    expect(form.status).toBe(429);
    expect(form.headers.get('retry-after')).toBe('780');
    expect(await form.text()).toContain('Too many wrong codes');
    expect(f.notices).toHaveLength(1);

    // The window over, the right code signs in.
    at(T0 + 900_000 + 30_000);
    const later = from(f, '192.0.2.77');
    await later.signIn();
    expect((await later.verify({ code: code(totp) })).status).toBe(200);
    expect((await later.c.session())?.user.id).toBe(f.userId);
  });

  it('is reset by a right code: 9 wrong, a sign-in, 9 wrong again do not lock', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(T0);
    const f = await setup();
    const { totp } = await enrol(f);
    at(T0 + 60_000);
    for (let i = 1; i <= 9; i += 1) expect((await guess(f, `198.51.100.${i}`, totp)).status).toBe(401);
    const owner = from(f, '192.0.2.77');
    await owner.signIn();
    expect((await owner.verify({ code: code(totp) })).status).toBe(200);
    for (let i = 11; i <= 19; i += 1) expect((await guess(f, `198.51.100.${i}`, totp)).status).toBe(401);
    at(T0 + 90_000);
    const again = from(f, '192.0.2.78');
    await again.signIn();
    expect((await again.verify({ code: code(totp) })).status).toBe(200);
    expect(f.notices).toHaveLength(0);
  });

  it('counts codes sent to disable and backup-codes too, and follows its limit and window', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(T0);
    const f = await setup({ limit: 3, window: 60 }, { rateLimit: { login: false } });
    const { c, totp } = await enrol(f);
    at(T0 + 60_000);
    for (const path of ['/auth/two-factor/disable', '/auth/two-factor/backup-codes', '/auth/two-factor/disable'])
      expect((await c.postJson(path, { code: wrong(totp) })).status).toBe(401);
    expect(f.notices).toHaveLength(1);
    const locked = await c.postJson('/auth/two-factor/disable', { code: code(totp) });
    expect(await errorCode(locked)).toBe('TWO_FACTOR_LOCKED');
    expect(Number(locked.headers.get('retry-after'))).toBe(60);
    expect((await f.storage.get(f.userId))?.enabled).toBe(true);
    at(T0 + 120_000);
    expect((await c.postJson('/auth/two-factor/disable', { code: code(totp) })).status).toBe(200);
  });

  it('tells the user once per window on a sliding-window storage too, though slots free up as the window slides', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(T0);
    const f = await setup(
      { limit: 3, window: 60, storage: createSlidingWindowStorage() },
      { rateLimit: { login: false } },
    );
    const { c, totp } = await enrol(f);
    const guesses = async (n: number) => {
      for (let i = 0; i < n; i += 1)
        expect((await c.postJson('/auth/two-factor/disable', { code: wrong(totp) })).status).toBe(401);
    };
    at(T0 + 1_000);
    await guesses(3);
    expect(f.notices).toHaveLength(1);
    // Half-way through the next window one old failure still weighs: two slots, the second locks again (a new window).
    at(T0 + 90_000);
    await guesses(2);
    expect(f.notices).toHaveLength(2);
    // Later in that window one more slot frees, and locks again: no second notice in the window.
    at(T0 + 110_000);
    await guesses(1);
    expect(await errorCode(await c.postJson('/auth/two-factor/disable', { code: code(totp) }))).toBe(
      'TWO_FACTOR_LOCKED',
    );
    expect(f.notices).toHaveLength(2);
  });

  it('fails closed: a storage that fails refuses codes with 503 RATE_LIMIT_UNAVAILABLE', async () => {
    const down: RateLimitStorage = {
      algorithm: 'fixed-window',
      backend: 'node-redis',
      counter: () => ({ consume: () => Promise.reject(new Error('down')), reset: () => Promise.resolve() }),
    };
    const f = await setup({ storage: down }, { rateLimit: { login: false } });
    const { c, totp } = await enrol(f);
    const res = await c.postJson('/auth/two-factor/disable', { code: code(totp) });
    expect(res.status).toBe(503);
    expect(await errorCode(res)).toBe('RATE_LIMIT_UNAVAILABLE');
    expect((await f.storage.get(f.userId))?.enabled).toBe(true);
  });

  it('can be turned off, and refuses bad options', async () => {
    const f = await setup(false, { rateLimit: { login: false } });
    const { totp } = await enrol(f);
    for (let i = 1; i <= 12; i += 1) expect((await guess(f, `198.51.100.${i}`, totp)).status).toBe(401);
    expect(f.notices).toHaveLength(0);
    const storage = createMemoryTwoFactorStorage();
    for (const lockout of [{ limit: 0 }, { limit: 1.5 }, { window: 0 }, { window: 86_401 }, { timeout: -1 }])
      expect(() => twoFactor({ storage, lockout })).toThrow(/lockout\./);
    expect(() => twoFactor({ storage, lockout: { storage: {} as never } })).toThrow(/lockout\.storage/);
  });
});

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

describe.runIf(redisUp)('the per-user failure budget in Redis', () => {
  it('is shared by every instance counting in the same Redis', async () => {
    const client = await createClient({ url: REDIS_URL }).connect();
    const other = await createClient({ url: REDIS_URL }).connect();
    const prefix = `test:two-factor-lockout:${randomBytes(6).toString('hex')}`;
    try {
      const adapter = createMemoryAdapter();
      const storage = createMemoryTwoFactorStorage();
      const lockout = { limit: 4, storage: createFixedWindowStorage(client), prefix };
      const a = await setup(lockout, { adapter, storage });
      const { totp } = await enrol(a);
      // A second instance over the same database (the same user and enrolment) and its own Redis connection, as
      // another process would be.
      const notices: unknown[] = [];
      const auth = createAuth({
        session: { strategy: 'database' },
        secret: SECRET,
        adapter,
        providers: [
          credentials({
            credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'P', type: 'password' } },
            authorize: passwordAccounts(adapter).authorize,
          }),
        ],
        plugins: [twoFactor({ storage, lockout: { ...lockout, storage: createFixedWindowStorage(other) } })],
        rateLimit: { login: createLoginRateLimiter(createFixedWindowStorage(), { trustProxy: 1 }) },
        events: { onTwoFactorLocked: (event) => void notices.push(event) },
        logger: { error: () => {}, warn: () => {} },
      });
      const twin: Fixture = { auth, adapter, userId: a.userId, client: () => new TestClient(auth) };
      for (const [f, ip] of [
        [a, '198.51.100.1'],
        [twin, '198.51.100.2'],
        [a, '198.51.100.3'],
        [twin, '198.51.100.4'],
      ] as const)
        expect((await guess(f, ip, totp)).status).toBe(401);
      expect(a.notices.length + notices.length).toBe(1);
      const owner = from(a, '192.0.2.77');
      await owner.signIn();
      const refused = await owner.verify({ code: code(totp) });
      expect(await errorCode(refused)).toBe('TWO_FACTOR_LOCKED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      for await (const keys of client.scanIterator({ MATCH: `${prefix}*` })) if (keys.length) await client.del(keys);
      await client.quit();
      await other.quit();
    }
  });
});
