/**
 * `twoFactor()` in process: enrolment, the sign-in challenge, replay and skew, attempt limits, backup codes,
 * trusted browsers, disabling, and the attacks on each. Codes are computed with `otpauth`, an implementation
 * independent of ours.
 */
import * as OTPAuth from 'otpauth';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CreateAuthOptions } from '../../auth.js';
import { AuthError } from '../../errors.js';
import { makeFixture, EMAIL, PASSWORD, type Fixture, type TestClient } from '../../testing/fixtures.js';
import type { AuthPlugin } from '../../contract/types.js';
import { createMemoryTwoFactorStorage } from './storage/memory.js';
import { twoFactor } from './plugin.js';
import type { TwoFactorOptions } from './options.js';

afterEach(() => vi.useRealTimers());

const T0 = Date.UTC(2026, 10, 24, 12, 0, 0);
const at = (ms: number) => vi.setSystemTime(ms);

async function setup(
  options: Partial<TwoFactorOptions> = {},
  overrides: Partial<CreateAuthOptions> = {},
  after: AuthPlugin[] = [],
) {
  vi.useFakeTimers({ toFake: ['Date'] });
  at(T0);
  const storage = createMemoryTwoFactorStorage();
  const events: string[] = [];
  const f = await makeFixture('database', {
    plugins: [twoFactor({ storage, issuer: 'Acme', ...options }), ...after],
    events: {
      onTwoFactorEnabled: ({ user }) => void events.push(`enabled:${user.id}`),
      onTwoFactorDisabled: ({ user }) => void events.push(`disabled:${user.id}`),
    },
    ...overrides,
  });
  // Enrolment needs a verified email (see email-proof.test.ts).
  await f.adapter.updateUser(f.userId, { emailVerified: new Date(T0) });
  let n = 0;
  const client = () => {
    const c = f.client();
    n += 1;
    c.ip = `192.0.2.${n}`;
    return c;
  };
  return { ...f, client, storage, events };
}

/** Signs in, enrols and confirms; returns the independent TOTP and the backup codes. */
async function enrol(f: Fixture) {
  const c = f.client();
  await c.signIn();
  const res = await c.postJson('/auth/two-factor/enable', { password: PASSWORD });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { totpURI: string; qrCode: string; secret: string; backupCodes: string[] };
  const totp = OTPAuth.URI.parse(body.totpURI) as OTPAuth.TOTP;
  const confirm = await c.postJson('/auth/two-factor/confirm', { code: totp.generate({ timestamp: Date.now() }) });
  expect(confirm.status).toBe(200);
  return { c, totp, body };
}

const codeAt = (totp: OTPAuth.TOTP, ms: number) => totp.generate({ timestamp: ms });
const cookieNames = (res: Response) => res.headers.getSetCookie().map((l) => l.split('=')[0]);
const errorCode = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;

/** A first factor in a fresh browser, expecting the challenge. */
async function challenged(f: Fixture, client?: TestClient) {
  const c = client ?? f.client();
  const res = await c.signIn();
  expect(res.status).toBe(401);
  const body = (await res.json()) as { error: { code: string }; url: string };
  expect(body.error.code).toBe('TWO_FACTOR_REQUIRED');
  expect(body.url).toBe('/auth/two-factor/verify');
  expect(cookieNames(res)).toContain('framework.two-factor');
  expect(cookieNames(res)).not.toContain('framework.session-token');
  expect(await c.session()).toBeNull();
  return c;
}

describe('enrolment', () => {
  it('needs the current password, and gives a key URI and QR code an authenticator app accepts', async () => {
    const f = await setup();
    const c = f.client();
    await c.signIn();
    const wrong = await c.postJson('/auth/two-factor/enable', { password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(await errorCode(wrong)).toBe('INVALID_CREDENTIALS');
    const res = await c.postJson('/auth/two-factor/enable', { password: PASSWORD });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as { totpURI: string; qrCode: string; secret: string; backupCodes: string[] };
    const totp = OTPAuth.URI.parse(body.totpURI) as OTPAuth.TOTP;
    expect(totp).toBeInstanceOf(OTPAuth.TOTP);
    expect(totp.issuer).toBe('Acme');
    expect(totp.label).toBe(EMAIL);
    expect([totp.digits, totp.period, totp.algorithm]).toStrictEqual([6, 30, 'SHA1']);
    expect(totp.secret.base32).toBe(body.secret);
    expect(totp.secret.bytes.length).toBe(20);
    expect(body.qrCode.startsWith('<svg')).toBe(true);
    expect(body.backupCodes).toHaveLength(10);
    expect(new Set(body.backupCodes).size).toBe(10);
    // At rest: encrypted key, hashed codes.
    const stored = (await f.storage.get(f.userId))!;
    expect(stored.enabled).toBe(false);
    expect(stored.secret.startsWith('enc:v1:')).toBe(true);
    expect(stored.secret).not.toContain(body.secret);
    expect(await f.storage.countBackupCodes(f.userId)).toBe(10);
    expect(await f.storage.useBackupCode(f.userId, body.backupCodes[0]!)).toBe(false);
  });

  it('is confirmed only by a valid code; until then sign-in needs no second factor', async () => {
    const f = await setup();
    const c = f.client();
    await c.signIn();
    const { totpURI } = (await (await c.postJson('/auth/two-factor/enable', { password: PASSWORD })).json()) as {
      totpURI: string;
    };
    expect((await f.client().signIn()).status).toBe(200);
    const bad = await c.postJson('/auth/two-factor/confirm', { code: '000000' });
    expect(bad.status).toBe(401);
    expect(await errorCode(bad)).toBe('TWO_FACTOR_INVALID_CODE');
    const totp = OTPAuth.URI.parse(totpURI) as OTPAuth.TOTP;
    const ok = await c.postJson('/auth/two-factor/confirm', { code: totp.generate({ timestamp: Date.now() }) });
    expect(await ok.json()).toStrictEqual({ ok: true, enabled: true });
    expect(f.events).toStrictEqual([`enabled:${f.userId}`]);
    await challenged(f);
    const again = await c.postJson('/auth/two-factor/enable', { password: PASSWORD });
    expect(await errorCode(again)).toBe('TWO_FACTOR_ALREADY_ENABLED');
  });

  it('refuses signed-out callers and API-less requests without a CSRF token', async () => {
    const f = await setup();
    const anonymous = await f.client().postJson('/auth/two-factor/enable', { password: PASSWORD });
    expect(anonymous.status).toBe(401);
    const c = f.client();
    await c.signIn();
    const noToken = await c.request('/auth/two-factor/enable', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', origin: 'http://app.test' },
      body: JSON.stringify({ password: PASSWORD }),
    });
    expect(noToken.status).toBe(403);
    expect(await f.storage.get(f.userId)).toBeNull();
  });
});

describe('sign-in with a second factor', () => {
  it('issues no session for the first factor, then one for a valid code', async () => {
    const f = await setup();
    const { totp } = await enrol(f);
    at(T0 + 60_000);
    const c = await challenged(f);
    const res = await c.postJson('/auth/two-factor/verify', { code: codeAt(totp, Date.now()) });
    expect(res.status).toBe(200);
    expect(cookieNames(res)).toContain('framework.session-token');
    expect((await c.session())?.user.id).toBe(f.userId);
  });

  it('accepts a code once: the same code in another sign-in, or an older one, is refused (RFC 6238 §5.2)', async () => {
    const f = await setup();
    const { totp } = await enrol(f);
    at(T0 + 60_000);
    const code = codeAt(totp, Date.now());
    const first = await challenged(f);
    expect((await first.postJson('/auth/two-factor/verify', { code })).status).toBe(200);
    const second = await challenged(f);
    const replay = await second.postJson('/auth/two-factor/verify', { code });
    expect(replay.status).toBe(401);
    expect(await errorCode(replay)).toBe('TWO_FACTOR_INVALID_CODE');
    const older = await second.postJson('/auth/two-factor/verify', { code: codeAt(totp, Date.now() - 30_000) });
    expect(older.status).toBe(401);
    expect(await second.session()).toBeNull();
  });

  it('allows one step of clock skew each way, and no more', async () => {
    const f = await setup();
    const { totp } = await enrol(f);
    const now = T0 + 10 * 60_000;
    at(now);
    const c = await challenged(f);
    expect((await c.postJson('/auth/two-factor/verify', { code: codeAt(totp, now - 60_000) })).status).toBe(401);
    expect((await c.postJson('/auth/two-factor/verify', { code: codeAt(totp, now + 60_000) })).status).toBe(401);
    expect((await c.postJson('/auth/two-factor/verify', { code: codeAt(totp, now + 30_000) })).status).toBe(200);
    const d = await challenged(f);
    at(now + 5 * 60_000);
    const late = await challenged(f, d);
    expect((await late.postJson('/auth/two-factor/verify', { code: codeAt(totp, Date.now() - 30_000) })).status).toBe(
      200,
    );
  });

  it('gives a challenge five codes, then refuses even the right one until the user signs in again', async () => {
    const f = await setup({}, { rateLimit: { login: false } });
    const { totp } = await enrol(f);
    at(T0 + 60_000);
    const c = await challenged(f);
    for (let i = 0; i < 5; i += 1) {
      const res = await c.postJson('/auth/two-factor/verify', { code: String(100000 + i) });
      expect(res.status).toBe(401);
    }
    const sixth = await c.postJson('/auth/two-factor/verify', { code: codeAt(totp, Date.now()) });
    expect(sixth.status).toBe(429);
    expect(await errorCode(sixth)).toBe('TWO_FACTOR_TOO_MANY_ATTEMPTS');
    expect(await c.session()).toBeNull();
    // A new challenge (the password again) starts over.
    await challenged(f, c);
    expect((await c.postJson('/auth/two-factor/verify', { code: codeAt(totp, Date.now()) })).status).toBe(200);
  });

  it('counts wrong codes on the login limiter too', async () => {
    const f = await setup({ maxAttempts: 20 });
    await enrol(f);
    at(T0 + 60_000);
    const c = await challenged(f);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1)
      statuses.push((await c.postJson('/auth/two-factor/verify', { code: String(200000 + i) })).status);
    expect(statuses).toContain(429);
  });

  it('settles the first factor as a success once the code is right: ten full sign-ins in a row from one IP all pass', async () => {
    const f = await setup();
    const { totp } = await enrol(f);
    const c = f.client();
    for (let i = 0; i < 10; i += 1) {
      at(T0 + 60_000 + i * 30_000);
      c.cookies.clear();
      await challenged(f, c);
      const res = await c.postJson('/auth/two-factor/verify', { code: codeAt(totp, Date.now()) });
      expect(res.status).toBe(200);
    }
    // Wrong passwords from the same IP still trip the (IP, account) budget, the right one included after it.
    c.cookies.clear();
    for (let i = 0; i < 5; i += 1) expect((await c.signIn(EMAIL, 'not the password')).status).toBe(401);
    const refused = await c.signIn();
    expect(refused.status).toBe(429);
    expect(await errorCode(refused)).toBe('RATE_LIMITED');
  });

  it('refuses a missing, tampered, expired or already used challenge', async () => {
    const f = await setup();
    const { totp } = await enrol(f);
    at(T0 + 60_000);
    const none = await f.client().postJson('/auth/two-factor/verify', { code: codeAt(totp, Date.now()) });
    expect(await errorCode(none)).toBe('TWO_FACTOR_CHALLENGE_INVALID');

    const c = await challenged(f);
    const value = c.cookies.get('framework.two-factor')!;
    const tampered = f.client();
    tampered.cookies.set('framework.two-factor', `${value.slice(0, -4)}AAAA`);
    expect(await errorCode(await tampered.postJson('/auth/two-factor/verify', { code: '123456' }))).toBe(
      'TWO_FACTOR_CHALLENGE_INVALID',
    );

    expect((await c.postJson('/auth/two-factor/verify', { code: codeAt(totp, Date.now()) })).status).toBe(200);
    const replayed = f.client();
    replayed.cookies.set('framework.two-factor', value);
    at(T0 + 90_000);
    const again = await replayed.postJson('/auth/two-factor/verify', { code: codeAt(totp, Date.now()) });
    expect(await errorCode(again)).toBe('TWO_FACTOR_CHALLENGE_INVALID');
    expect(await replayed.session()).toBeNull();

    const slow = await challenged(f);
    at(T0 + 90_000 + 301_000);
    const expired = await slow.postJson('/auth/two-factor/verify', { code: codeAt(totp, Date.now()) });
    expect(await errorCode(expired)).toBe('TWO_FACTOR_CHALLENGE_INVALID');
  });

  it('still runs the plugins after it: a later beforeSession hook can refuse the verified sign-in', async () => {
    const gate: AuthPlugin = {
      id: 'gate',
      hooks: {
        beforeSession: (_ctx, { user }) =>
          user.email === EMAIL && blocked
            ? { status: 403, json: new AuthError('Blocked', { code: 'ACCESS_DENIED', status: 403 }).toJSON() }
            : undefined,
      },
    };
    let blocked = false;
    const f = await setup({}, {}, [gate]);
    const { totp } = await enrol(f);
    at(T0 + 60_000);
    const c = await challenged(f);
    blocked = true;
    const res = await c.postJson('/auth/two-factor/verify', { code: codeAt(totp, Date.now()) });
    expect(res.status).toBe(403);
    expect(await c.session()).toBeNull();
  });

  it('walks browsers through the code page', async () => {
    const f = await setup();
    const { totp } = await enrol(f);
    at(T0 + 60_000);
    const c = f.client();
    const first = await c.postForm('/auth/callback/credentials', {
      email: EMAIL,
      password: PASSWORD,
      callbackUrl: '/dashboard',
    });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/auth/two-factor/verify');
    const page = await c.request('/auth/two-factor/verify');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('autocomplete="one-time-code"');
    expect(html).toContain('name="backupCode"');
    const wrong = await c.postForm('/auth/two-factor/verify', { code: '000000' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('role="alert"');
    const done = await c.postForm('/auth/two-factor/verify', { code: codeAt(totp, Date.now()) });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/dashboard');
    expect((await c.session())?.user.id).toBe(f.userId);
    // Without a challenge the page sends the browser to sign in.
    const later = await f.client().request('/auth/two-factor/verify');
    expect(later.status).toBe(303);
  });
});

describe('backup codes', () => {
  it('sign a user in once each, and are replaced by regeneration', async () => {
    const f = await setup();
    const { totp, body } = await enrol(f);
    at(T0 + 60_000);
    const code = body.backupCodes[3]!;
    const a = await challenged(f);
    expect((await a.postJson('/auth/two-factor/verify', { backupCode: code.toUpperCase() })).status).toBe(200);
    const b = await challenged(f);
    expect(await errorCode(await b.postJson('/auth/two-factor/verify', { backupCode: code }))).toBe(
      'TWO_FACTOR_INVALID_CODE',
    );
    const status = (await (
      await a.request('/auth/two-factor', { headers: { accept: 'application/json' } })
    ).json()) as {
      backupCodesLeft: number;
    };
    expect(status.backupCodesLeft).toBe(9);
    const regen = await a.postJson('/auth/two-factor/backup-codes', { code: codeAt(totp, Date.now()) });
    const fresh = ((await regen.json()) as { backupCodes: string[] }).backupCodes;
    expect(fresh).toHaveLength(10);
    expect(await errorCode(await b.postJson('/auth/two-factor/verify', { backupCode: body.backupCodes[0]! }))).toBe(
      'TWO_FACTOR_INVALID_CODE',
    );
    expect((await b.postJson('/auth/two-factor/verify', { backupCode: fresh[0]! })).status).toBe(200);
  });
});

describe('trusted browsers', () => {
  it('skip the code for that user in that browser only, until revoked', async () => {
    const f = await setup();
    const { totp } = await enrol(f);
    at(T0 + 60_000);
    const browser = await challenged(f);
    const res = await browser.postJson('/auth/two-factor/verify', {
      code: codeAt(totp, Date.now()),
      trustDevice: true,
    });
    const trust = res.headers.getSetCookie().find((l) => l.startsWith('framework.two-factor-trust='))!;
    expect(trust).toMatch(/HttpOnly/i);
    expect(trust).toMatch(/Max-Age=2592000/);
    browser.cookies.delete('framework.session-token');
    expect((await browser.signIn()).status).toBe(200);
    // Another browser is still challenged.
    await challenged(f);
    // A forged trust cookie (right id, wrong secret) is not trust.
    const [id] = browser.cookies.get('framework.two-factor-trust')!.split('.');
    const forged = f.client();
    forged.cookies.set('framework.two-factor-trust', `${id}.${'A'.repeat(43)}`);
    await challenged(f, forged);
    // Revoked: challenged again.
    const list = (await (
      await browser.request('/auth/two-factor', { headers: { accept: 'application/json' } })
    ).json()) as { trustedDevices: { id: string }[] };
    expect(list.trustedDevices.map((d) => d.id)).toStrictEqual([id]);
    expect((await browser.postJson('/auth/two-factor/trusted-devices/revoke', { id })).status).toBe(200);
    browser.cookies.delete('framework.session-token');
    await challenged(f, browser);
  });

  it('does not extend to another user signing in on the same browser', async () => {
    const f = await setup();
    const { totp } = await enrol(f);
    at(T0 + 60_000);
    const browser = await challenged(f);
    await browser.postJson('/auth/two-factor/verify', { code: codeAt(totp, Date.now()), trustDevice: 'true' });
    const [id] = browser.cookies.get('framework.two-factor-trust')!.split('.');
    const device = (await f.storage.findTrustedDevice(id!))!;
    await f.storage.removeTrustedDevices(f.userId, id);
    await f.storage.addTrustedDevice({ ...device, userId: 'someone-else' });
    browser.cookies.delete('framework.session-token');
    await challenged(f, browser);
  });
});

describe('disabling', () => {
  it('needs the password or a code, then removes the enrolment, codes and trusted browsers', async () => {
    const f = await setup();
    const { c, totp } = await enrol(f);
    at(T0 + 60_000);
    const wrong = await c.postJson('/auth/two-factor/disable', { password: 'nope nope nope' });
    expect(wrong.status).toBe(401);
    const noProof = await c.postJson('/auth/two-factor/disable', {});
    expect(await errorCode(noProof)).toBe('TWO_FACTOR_INVALID_CODE');
    const ok = await c.postJson('/auth/two-factor/disable', { code: codeAt(totp, Date.now()) });
    expect(await ok.json()).toStrictEqual({ ok: true, enabled: false });
    expect(await f.storage.get(f.userId)).toBeNull();
    expect(await f.storage.countBackupCodes(f.userId)).toBe(0);
    expect(f.events).toContain(`disabled:${f.userId}`);
    expect((await f.client().signIn()).status).toBe(200);
    expect(await errorCode(await c.postJson('/auth/two-factor/disable', { password: PASSWORD }))).toBe(
      'TWO_FACTOR_NOT_ENABLED',
    );
  });

  it('goes with the account when the user is deleted', async () => {
    const f = await setup();
    const { c } = await enrol(f);
    expect((await c.postJson('/auth/account/delete', { password: PASSWORD })).status).toBe(200);
    expect(await f.storage.get(f.userId)).toBeNull();
  });
});

describe('configuration', () => {
  it('refuses to start without a secret or an adapter, and with bad options', async () => {
    await expect(setup({}, { secret: undefined })).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
    expect(() => twoFactor({ storage: createMemoryTwoFactorStorage(), digits: 5 })).toThrow(/digits/);
    expect(() => twoFactor({ storage: {} } as TwoFactorOptions)).toThrow(/storage/);
    expect(() => twoFactor({ storage: createMemoryTwoFactorStorage(), issuer: 'a:b' })).toThrow(/issuer/);
  });
});
