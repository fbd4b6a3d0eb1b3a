/**
 * `multiSession()` end to end through `auth.handler` with a cookie jar, on the memory adapter, SQLite and
 * PostgreSQL: a second sign-in keeps the first account, the list, switching, signing one account out, the cap,
 * sign-out, and the attacks (a session id this browser does not hold, a tampered or forged cookie, a session
 * revoked elsewhere, a banned user, CSRF).
 */
import * as OTPAuth from 'otpauth';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createAuth, type CreateAuthOptions } from '../../auth.js';
import { seal } from '../../http/sealed.js';
import { passwordAccounts } from '../../password-accounts.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import type { StorageAdapter } from '../../storage/types.js';
import { EMAIL, ORIGIN, PASSWORD, SECRET, makeFixture } from '../../testing/fixtures.js';
import { admin } from '../admin/index.js';
import { twoFactor } from '../two-factor/index.js';
import {
  clientsOwnAddress,
  emails,
  idOf,
  list,
  multiSessionAdapters,
  SET_COOKIE,
  signInAs,
} from './fixture.test-helpers.js';
import { multiSession, type MultiSessionOptions } from './index.js';

const { adapters, dropAll } = await multiSessionAdapters('multi_session_e2e');
afterAll(dropAll);

const GRACE = 'grace@example.com';
const HOPPER = 'hopper@example.com';

async function setup(
  options: MultiSessionOptions = {},
  overrides: Partial<CreateAuthOptions> = {},
  open: () => Promise<StorageAdapter> = async () => createMemoryAdapter(),
) {
  const adapter = await open();
  const f = await makeFixture('database', {
    adapter,
    baseURL: ORIGIN,
    plugins: [multiSession(options)],
    ...overrides,
  });
  await f.auth.migrate();
  const passwords = passwordAccounts(adapter);
  const grace = await passwords.register({ email: GRACE, password: PASSWORD, name: 'Grace' });
  const hopper = await passwords.register({ email: HOPPER, password: PASSWORD, name: 'Hopper' });
  const client = clientsOwnAddress(() => f.client());
  return { ...f, client, graceId: grace.id, hopperId: hopper.id, close: () => adapter.close?.() };
}

const errorCode = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;

describe.each(adapters)('multiSession() on %s', (_name, open) => {
  it('keeps the first account on a second sign-in; lists, switches and signs one account out', async () => {
    const f = await setup({}, {}, open);
    try {
      const c = f.client();
      await signInAs(c, EMAIL);
      const adaCookie = c.cookieHeader();
      await signInAs(c, GRACE);
      expect((await c.session())?.user.email).toBe(GRACE);
      expect(await emails(c)).toStrictEqual([
        [GRACE, true],
        [EMAIL, false],
      ]);
      // The token the browser sent at the second sign-in was rotated away; Ada goes on under a new one.
      const stale = await f.auth.handler(
        new Request(`${ORIGIN}/auth/session`, { headers: { cookie: adaCookie, accept: 'application/json' } }),
      );
      expect(await stale.json()).toBeNull();
      expect(await f.adapter.listSessions(f.userId)).toHaveLength(1);

      const sessions = await list(c);
      expect(sessions[1]).toMatchObject({ user: { id: f.userId, name: 'Ada', email: EMAIL, image: null } });
      expect(Date.parse(sessions[1]!.expires)).toBeGreaterThan(Date.now());
      // No token leaves the server: neither the session cookie's secret nor the sealed cookie.
      const text = JSON.stringify(sessions);
      for (const value of c.cookies.values()) expect(text).not.toContain(value.split('.').at(-1));

      const adaId = await idOf(c, EMAIL);
      const switched = await c.postJson('/auth/multi-session/set-active', { sessionId: adaId });
      expect(switched.status).toBe(200);
      expect(await switched.json()).toMatchObject({ ok: true, session: { sessionId: adaId, active: true } });
      expect((await c.session())?.user.email).toBe(EMAIL);
      expect(await emails(c)).toStrictEqual([
        [EMAIL, true],
        [GRACE, false],
      ]);

      // Signing out the account that is not active ends its stored session; the active one stays.
      const graceId = await idOf(c, GRACE);
      const revoked = await c.postJson('/auth/multi-session/revoke', { sessionId: graceId });
      expect(await revoked.json()).toMatchObject({ ok: true, active: adaId });
      expect(await f.adapter.listSessions(f.graceId)).toHaveLength(0);
      expect(await emails(c)).toStrictEqual([[EMAIL, true]]);
      expect((await c.session())?.user.email).toBe(EMAIL);
    } finally {
      await f.close();
    }
  });

  it('signing out the active account makes the most recently added other one active, then none', async () => {
    const f = await setup({}, {}, open);
    try {
      const c = f.client();
      await signInAs(c, EMAIL);
      await signInAs(c, GRACE);
      await signInAs(c, HOPPER);
      const hopperId = await idOf(c, HOPPER);
      const graceId = await idOf(c, GRACE);
      const first = await c.postJson('/auth/multi-session/revoke', { sessionId: hopperId });
      expect(await first.json()).toMatchObject({ ok: true, active: graceId });
      expect((await c.session())?.user.email).toBe(GRACE);
      expect(await f.adapter.listSessions(f.hopperId)).toHaveLength(0);
      await c.postJson('/auth/multi-session/revoke', { sessionId: graceId });
      expect((await c.session())?.user.email).toBe(EMAIL);
      const last = await c.postJson('/auth/multi-session/revoke', { sessionId: await idOf(c, EMAIL) });
      expect(await last.json()).toMatchObject({ ok: true, active: null });
      expect(await c.session()).toBeNull();
      expect(await list(c)).toStrictEqual([]);
      expect(c.cookies.has(SET_COOKIE)).toBe(false);
    } finally {
      await f.close();
    }
  });

  it('caps the set at maximumSessions: the account added longest ago is signed out', async () => {
    const f = await setup({ maximumSessions: 2 }, {}, open);
    try {
      const c = f.client();
      await signInAs(c, EMAIL);
      await signInAs(c, GRACE);
      await signInAs(c, HOPPER);
      expect(await emails(c)).toStrictEqual([
        [HOPPER, true],
        [GRACE, false],
      ]);
      expect(await f.adapter.listSessions(f.userId)).toHaveLength(0);
      expect(await f.adapter.listSessions(f.graceId)).toHaveLength(1);
    } finally {
      await f.close();
    }
  });

  it('POST /signout ends every account of the browser', async () => {
    const f = await setup({}, {}, open);
    try {
      const c = f.client();
      await signInAs(c, EMAIL);
      await signInAs(c, GRACE);
      expect((await c.postJson('/auth/signout', {})).status).toBe(200);
      expect(await c.session()).toBeNull();
      expect(c.cookies.has(SET_COOKIE)).toBe(false);
      expect(await f.adapter.listSessions(f.userId)).toHaveLength(0);
      expect(await f.adapter.listSessions(f.graceId)).toHaveLength(0);
    } finally {
      await f.close();
    }
  });
});

describe('multiSession() sign-ins', () => {
  it('a second sign-in of the same user keeps one entry; signing in again as a kept user replaces its old session', async () => {
    const f = await setup();
    const c = f.client();
    await signInAs(c, EMAIL);
    await signInAs(c, EMAIL);
    expect(await emails(c)).toStrictEqual([[EMAIL, true]]);
    expect(c.cookies.has(SET_COOKIE)).toBe(false);
    await signInAs(c, GRACE);
    await signInAs(c, EMAIL);
    expect(await emails(c)).toStrictEqual([
      [EMAIL, true],
      [GRACE, false],
    ]);
    // Ada's kept session was revoked when she signed in again: one session each.
    expect(await f.adapter.listSessions(f.userId)).toHaveLength(1);
    expect(await f.adapter.listSessions(f.graceId)).toHaveLength(1);
  });

  it('with maximumSessions: 1, a sign-in as another user keeps nothing and leaves no session behind', async () => {
    const f = await setup({ maximumSessions: 1 });
    const c = f.client();
    await signInAs(c, EMAIL);
    await signInAs(c, GRACE);
    expect(await emails(c)).toStrictEqual([[GRACE, true]]);
    expect(await f.adapter.listSessions(f.userId)).toHaveLength(0);
    expect(c.cookies.has(SET_COOKIE)).toBe(false);
  });

  it('keeps the kept account’s expiry', async () => {
    const f = await setup();
    const c = f.client();
    await signInAs(c, EMAIL);
    const before = (await list(c))[0]!.expires;
    await signInAs(c, GRACE);
    const kept = (await list(c)).find((s) => s.user.email === EMAIL)!;
    expect(Math.abs(Date.parse(kept.expires) - Date.parse(before))).toBeLessThanOrEqual(1000);
  });
});

describe('multiSession() with a second factor', () => {
  afterEach(() => vi.useRealTimers());

  it('a challenged sign-in changes nothing until the code is right, then keeps the first account', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 10, 26, 12, 0, 0));
    const f = await setup({}, { plugins: [multiSession(), twoFactor({ issuer: 'Acme' })] });
    await f.adapter.updateUser(f.userId, { emailVerified: new Date() });
    const enrolling = f.client();
    await signInAs(enrolling, EMAIL);
    const enabled = await enrolling.postJson('/auth/two-factor/enable', { password: PASSWORD });
    const totp = OTPAuth.URI.parse(((await enabled.json()) as { totpURI: string }).totpURI) as OTPAuth.TOTP;
    const confirmed = await enrolling.postJson('/auth/two-factor/confirm', {
      code: totp.generate({ timestamp: Date.now() }),
    });
    expect(confirmed.status).toBe(200);

    const c = f.client();
    await signInAs(c, GRACE);
    const challenged = await c.signIn(EMAIL);
    expect(challenged.status).toBe(401);
    expect(await emails(c)).toStrictEqual([[GRACE, true]]);
    vi.setSystemTime(Date.now() + 30_000);
    const verified = await c.postJson('/auth/two-factor/verify', { code: totp.generate({ timestamp: Date.now() }) });
    expect(verified.status).toBe(200);
    expect(await emails(c)).toStrictEqual([
      [EMAIL, true],
      [GRACE, false],
    ]);
  });
});

describe('multiSession() attacks', () => {
  it('refuses a session id this browser does not hold with 404 DEVICE_SESSION_NOT_FOUND, changing nothing', async () => {
    const f = await setup();
    const victim = f.client();
    await signInAs(victim, GRACE);
    const victimId = await idOf(victim, GRACE);
    const attacker = f.client();
    await signInAs(attacker, EMAIL);
    for (const path of ['/auth/multi-session/set-active', '/auth/multi-session/revoke']) {
      const res = await attacker.postJson(path, { sessionId: victimId });
      expect(res.status).toBe(404);
      expect(await errorCode(res)).toBe('DEVICE_SESSION_NOT_FOUND');
    }
    expect((await attacker.session())?.user.email).toBe(EMAIL);
    expect((await victim.session())?.user.email).toBe(GRACE);
    expect(await f.adapter.listSessions(f.graceId)).toHaveLength(1);
    const missing = await attacker.postJson('/auth/multi-session/set-active', {});
    expect([missing.status, await errorCode(missing)]).toStrictEqual([400, 'INVALID_REQUEST']);
  });

  it('a tampered or forged set cookie counts as empty and is cleared', async () => {
    const f = await setup();
    const c = f.client();
    await signInAs(c, EMAIL);
    await signInAs(c, GRACE);
    const sealed = c.cookies.get(SET_COOKIE)!;
    // One character of the ciphertext changed (a first character of a base64url run carries six whole bits).
    const parts = sealed.split('.');
    parts[3] = `${parts[3]!.startsWith('A') ? 'B' : 'A'}${parts[3]!.slice(1)}`;
    c.cookies.set(SET_COOKIE, parts.join('.'));
    expect(await emails(c)).toStrictEqual([[GRACE, true]]);
    expect(c.cookies.has(SET_COOKIE)).toBe(false);

    // Sealed under another secret: someone who knows a token cannot plant it without the auth secret.
    const ada = f.client();
    await signInAs(ada, EMAIL);
    const adaToken = [...ada.cookies].find(([k]) => k.endsWith('session-token'))![1];
    const forged = await seal({ t: [adaToken] }, `${SECRET}-not-ours`, 'multi-session', 3600, {
      now: () => Date.now(),
    });
    c.cookies.set(SET_COOKIE, forged);
    expect(await emails(c)).toStrictEqual([[GRACE, true]]);
    // The control: the same token sealed under the auth secret is one of the browser's accounts.
    c.cookies.set(SET_COOKIE, await seal({ t: [adaToken] }, SECRET, 'multi-session', 3600, { now: () => Date.now() }));
    expect(await emails(c)).toStrictEqual([
      [GRACE, true],
      [EMAIL, false],
    ]);
  });

  it('a session revoked elsewhere drops out silently and cannot be switched to', async () => {
    const f = await setup();
    const c = f.client();
    await signInAs(c, EMAIL);
    await signInAs(c, GRACE);
    const adaId = await idOf(c, EMAIL);
    await f.adapter.deleteSession(adaId);
    expect(await emails(c)).toStrictEqual([[GRACE, true]]);
    const res = await c.postJson('/auth/multi-session/set-active', { sessionId: adaId });
    expect(await errorCode(res)).toBe('DEVICE_SESSION_NOT_FOUND');
    expect((await c.session())?.user.email).toBe(GRACE);
  });

  it('a banned user (admin()) drops out of the set', async () => {
    const f = await setup({}, { plugins: [multiSession(), admin()] });
    const root = await passwordAccounts(f.adapter).register({ email: 'root@example.com', password: PASSWORD });
    await f.adapter.updateUser(root.id, { role: 'admin' });
    const c = f.client();
    await signInAs(c, EMAIL);
    await signInAs(c, GRACE);
    const a = f.client();
    await signInAs(a, 'root@example.com');
    expect((await a.postJson('/auth/admin/users/ban', { userId: f.userId })).status).toBe(200);
    expect(await emails(c)).toStrictEqual([[GRACE, true]]);
  });

  it('checks CSRF on both POST routes', async () => {
    const f = await setup();
    const c = f.client();
    await signInAs(c, EMAIL);
    await signInAs(c, GRACE);
    const adaId = await idOf(c, EMAIL);
    for (const path of ['/auth/multi-session/set-active', '/auth/multi-session/revoke']) {
      const res = await c.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', origin: 'https://evil.test' },
        body: JSON.stringify({ sessionId: adaId }),
      });
      expect(res.status).toBe(403);
    }
    expect(await emails(c)).toStrictEqual([
      [GRACE, true],
      [EMAIL, false],
    ]);
  });
});

describe('multiSession() page', () => {
  it('lists the accounts with Switch and Sign out forms; the forms work without JavaScript', async () => {
    const f = await setup();
    const c = f.client();
    const signedOut = await c.request('/auth/multi-session', { headers: { accept: 'text/html' } });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get('location')).toContain('callbackUrl=%2Fauth%2Fmulti-session');
    await signInAs(c, EMAIL);
    await signInAs(c, GRACE);
    const page = await c.request('/auth/multi-session', { headers: { accept: 'text/html' } });
    const html = await page.text();
    expect(html).toContain('Switch to Ada');
    expect(html).not.toContain('Switch to Grace');
    expect(html).toContain('Sign out Grace');
    expect(html).toContain('Sign out Ada');
    expect(html).toMatch(/<a href="[^"]*callbackUrl=%2Fauth%2Fmulti-session">Add another account<\/a>/);
    expect(html).toMatch(/name="csrfToken" value="[^"]+"/);
    const adaId = await idOf(c, EMAIL);
    const switched = await c.postForm('/auth/multi-session/set-active', { sessionId: adaId });
    expect([switched.status, switched.headers.get('location')]).toStrictEqual([303, '/auth/multi-session']);
    expect((await c.session())?.user.email).toBe(EMAIL);
  });
});

describe("multiSession() page in the person's language", () => {
  it.each([
    [
      'de',
      'de-AT,de;q=0.9,en;q=0.5',
      ['Konten in diesem Browser', 'Zu Ada wechseln', 'Grace abmelden', '(aktuell)', 'Weiteres Konto hinzufügen'],
    ],
    [
      'ja',
      'ja',
      [
        'このブラウザーのアカウント',
        'Ada に切り替える',
        'Grace からサインアウト',
        '（使用中）',
        '別のアカウントを追加',
      ],
    ],
  ])('renders the accounts page in %s, saying so in <html lang> and Content-Language', async (lang, header, texts) => {
    const f = await setup();
    const c = f.client();
    await signInAs(c, EMAIL);
    await signInAs(c, GRACE);
    const page = await c.request('/auth/multi-session', {
      headers: { accept: 'text/html', 'accept-language': header },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-language')).toBe(lang);
    expect(page.headers.get('vary')?.toLowerCase()).toContain('accept-language');
    const html = await page.text();
    expect(html).toContain(`<html lang="${lang}">`);
    for (const text of texts) expect(html).toContain(text);
    expect(html).not.toContain('Add another account');
    expect(html).not.toContain('Switch to');
  });
});

describe('multiSession() on auth.api', () => {
  it('lists and switches from server code, typed from the plugin', async () => {
    const auth = createAuth({
      secret: SECRET,
      baseURL: ORIGIN,
      adapter: createMemoryAdapter(),
      providers: [],
      emailAndPassword: {},
      plugins: [multiSession()],
      logger: { error: () => {}, warn: () => {} },
    });
    const jar = new Map<string, string>();
    const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const keep = (headers: Headers) => {
      for (const line of headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const eq = pair.indexOf('=');
        if (/max-age=0/i.test(line)) jar.delete(pair.slice(0, eq));
        else jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
    };
    for (const email of [EMAIL, GRACE]) {
      const { headers } = await auth.api.signUpEmail(
        { email, password: PASSWORD },
        { returnHeaders: true, headers: { cookie: cookie() } },
      );
      keep(headers);
    }
    const { sessions } = await auth.api.listDeviceSessions(undefined, { headers: { cookie: cookie() } });
    expect(sessions.map((s) => [s.user.email, s.active])).toStrictEqual([
      [GRACE, true],
      [EMAIL, false],
    ]);
    const { data, headers } = await auth.api.setActiveSession(
      { sessionId: sessions[1]!.sessionId },
      { returnHeaders: true, headers: { cookie: cookie() } },
    );
    expect(data.session.user.email).toBe(EMAIL);
    keep(headers);
    expect((await auth.api.getSession(undefined, { headers: { cookie: cookie() } }))?.user.email).toBe(EMAIL);
    await expect(
      auth.api.revokeDeviceSession({ sessionId: 'not-one-of-ours' }, { headers: { cookie: cookie() } }),
    ).rejects.toMatchObject({ code: 'DEVICE_SESSION_NOT_FOUND', status: 404 });
  });
});

describe('multiSession() configuration', () => {
  it('refuses the jwt strategy, a missing adapter and bad options at createAuth', async () => {
    expect(() =>
      createAuth({
        secret: SECRET,
        adapter: createMemoryAdapter(),
        session: { strategy: 'jwt' },
        providers: [],
        plugins: [multiSession()],
      }),
    ).toThrow(/multiSession\(\) needs `session: \{ strategy: "database" \}`/);
    expect(() => createAuth({ secret: SECRET, providers: [], plugins: [multiSession()] })).toThrow(/needs `adapter`/);
    for (const maximumSessions of [0, 1.5, 21, Number.NaN])
      expect(() => multiSession({ maximumSessions })).toThrow(/maximumSessions must be an integer/);
  });
});
