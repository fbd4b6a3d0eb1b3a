/**
 * Attacks on `multiSession()` as classes, through `auth.handler` with a cookie jar: the cookie's size under many
 * sign-ins, tokens of the set replayed after they end, accounts whose user was deleted or whose sessions a password
 * change ended (before or during a sign-in), a kept account's sign-in time, a set planted from another browser,
 * markup on the accounts page, cross-site posts, GET/HEAD, and impersonation.
 */
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import type { CreateAuthOptions } from '../../auth.js';
import { seal, unseal } from '../../http/sealed.js';
import type { AuthPlugin } from '../../plugin-kit.js';
import { passwordAccounts } from '../../password-accounts.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import { EMAIL, ORIGIN, PASSWORD, SECRET, makeFixture, type TestClient } from '../../testing/fixtures.js';
import { admin } from '../admin/index.js';
import {
  clientsOwnAddress,
  emails,
  idOf,
  list,
  multiSessionAdapters,
  SET_COOKIE,
  signInAs,
} from './fixture.test-helpers.js';
import { multiSession, type DeviceSessionInfo, type MultiSessionOptions } from './index.js';

const { adapters, dropAll } = await multiSessionAdapters('multi_session_attacks');
afterAll(dropAll);

const SESSION_COOKIE = 'framework.session-token';
const clock = { now: () => Date.now() };

async function setup(
  options: MultiSessionOptions = {},
  plugins: unknown[] = [],
  extra: Partial<CreateAuthOptions> = {},
) {
  const adapter = extra.adapter ?? createMemoryAdapter();
  const f = await makeFixture('database', {
    adapter,
    baseURL: ORIGIN,
    emailAndPassword: {},
    plugins: [multiSession(options), ...(plugins as never[])],
    rateLimit: { login: false },
    ...extra,
  });
  await f.auth.migrate();
  const passwords = passwordAccounts(adapter);
  const register = (email: string) => passwords.register({ email, password: PASSWORD, name: email.split('@')[0] });
  const client = clientsOwnAddress(() => f.client());
  return { ...f, client, register };
}

/** The tokens inside the browser's sealed cookie (the test knows the secret; nobody else does). */
const sealedTokensOf = async (c: TestClient) =>
  ((await unseal(c.cookies.get(SET_COOKIE), SECRET, 'multi-session', clock))?.t as string[] | undefined) ?? [];
/** What `GET /session` says of a browser that sends only `token` as its session cookie. */
const sessionWith = async (f: { auth: { handler(r: Request): Promise<Response> } }, token: string) =>
  (await (
    await f.auth.handler(
      new Request(`${ORIGIN}/auth/session`, {
        headers: { cookie: `${SESSION_COOKIE}=${token}`, accept: 'application/json' },
      }),
    )
  ).json()) as { user: { email: string } } | null;

describe('multiSession() attacks', () => {
  it('many sign-ins: the set stays at the cap, its cookie under 4 KB, the answer a few Set-Cookie lines', async () => {
    const f = await setup({ maximumSessions: 20 });
    const c = f.client();
    const people = Array.from({ length: 26 }, (_, i) => `person${i}@example.com`);
    const ids: string[] = [];
    for (const email of people) ids.push((await f.register(email)).id);
    for (const email of people) {
      const res = await c.signIn(email);
      expect(res.status).toBe(200);
      const lines = res.headers.getSetCookie();
      expect(lines.length).toBeLessThanOrEqual(4);
      for (const line of lines) expect(line.length).toBeLessThan(4096);
    }
    expect(c.cookieHeader().length).toBeLessThan(4096);
    const sessions = await list(c);
    expect(sessions).toHaveLength(20);
    // The accounts past the cap were signed out, not only forgotten: exactly 20 stored sessions are left.
    const stored = (await Promise.all(ids.map((id) => f.adapter.listSessions(id)))).flat();
    expect(stored).toHaveLength(20);
    expect(sessions.map((s) => s.user.email).sort()).toStrictEqual(people.slice(6).sort());
  });

  it('a token of the set is dead once that account is signed out, and once the browser signs out', async () => {
    const f = await setup();
    await f.register('grace@example.com');
    await f.register('hopper@example.com');
    const c = f.client();
    await signInAs(c, EMAIL);
    await signInAs(c, 'grace@example.com');
    await signInAs(c, 'hopper@example.com');
    const [adaToken, graceToken] = await sealedTokensOf(c);
    expect((await sessionWith(f, adaToken!))?.user.email).toBe(EMAIL);
    const stolenSet = c.cookies.get(SET_COOKIE)!;

    expect((await c.postJson('/auth/multi-session/revoke', { sessionId: await idOf(c, EMAIL) })).status).toBe(200);
    expect(await sessionWith(f, adaToken!)).toBeNull();
    // An old copy of the sealed cookie brings nothing back: every token is checked against storage.
    c.cookies.set(SET_COOKIE, stolenSet);
    expect(await emails(c)).toStrictEqual([
      ['hopper@example.com', true],
      ['grace@example.com', false],
    ]);
    const revive = await c.postJson('/auth/multi-session/set-active', { sessionId: adaToken!.split('.')[0] });
    expect(revive.status).toBe(404);

    expect((await c.postJson('/auth/signout', {})).status).toBeLessThan(400);
    expect(await sessionWith(f, graceToken!)).toBeNull();
    c.cookies.set(SET_COOKIE, stolenSet);
    expect(await list(c)).toStrictEqual([]);
  });

  it('an account whose user was deleted, or whose sessions a password change ended, drops out and cannot be switched to', async () => {
    const f = await setup();
    const grace = await f.register('grace@example.com');
    await f.register('hopper@example.com');
    const c = f.client();
    await signInAs(c, 'grace@example.com');
    await signInAs(c, EMAIL);
    await signInAs(c, 'hopper@example.com');
    const graceId = await idOf(c, 'grace@example.com');
    const adaId = await idOf(c, EMAIL);

    await f.adapter.deleteUser(grace.id);
    expect((await c.postJson('/auth/multi-session/set-active', { sessionId: graceId })).status).toBe(404);

    // Ada changes her password on another browser, ending her other sessions: this browser's Ada too.
    const elsewhere = f.client();
    await signInAs(elsewhere, EMAIL);
    const changed = await elsewhere.postJson('/auth/password/change', {
      currentPassword: PASSWORD,
      newPassword: `${PASSWORD}-new`,
    });
    expect(changed.status).toBe(200);
    expect((await c.postJson('/auth/multi-session/set-active', { sessionId: adaId })).status).toBe(404);
    expect(await emails(c)).toStrictEqual([['hopper@example.com', true]]);
    expect((await c.session())?.user.email).toBe('hopper@example.com');
  });

  it.each(adapters)(
    '%s: a kept account keeps when its person signed in (another sign-in is no fresh one)',
    async (_name, open) => {
      let now = Date.parse('2026-01-05T09:00:00Z');
      const adapter = await open();
      const f = await setup({}, [], { adapter, clock: { now: () => now } });
      onTestFinished(() => adapter.close?.());
      await f.register('grace@example.com');
      const c = f.client();
      await signInAs(c, EMAIL);
      const [adaSession] = await f.adapter.listSessions(f.userId);
      const signedInAt = adaSession!.createdAt.getTime();
      now += 6 * 3_600_000;
      await signInAs(c, 'grace@example.com');
      const [kept] = await f.adapter.listSessions(f.userId);
      expect(kept!.id).not.toBe(adaSession!.id);
      // The re-issued session is Ada's sign-in going on: its createdAt is the authTime freshness checks read
      // (oidcProvider()'s max_age and prompt=login).
      expect(kept!.createdAt.getTime()).toBe(signedInAt);
    },
  );

  it('every session of the kept account ended during the sign-in (a ban, a password reset): no new session is issued for it', async () => {
    // A plugin whose afterSignIn runs before multiSession()'s: the moment between the core's rotation and the keep.
    let endAdaDuringSignIn = false;
    const endAllOfAda: AuthPlugin = {
      id: 'endAllOfAda',
      init: (auth) => void (internals = auth),
      hooks: {
        afterSignIn: async () => {
          if (endAdaDuringSignIn) await internals!.strategy.revokeUser(adaId);
          return undefined;
        },
      },
    } as AuthPlugin;
    let internals: Parameters<NonNullable<AuthPlugin['init']>>[0] | undefined;
    const adapter = createMemoryAdapter();
    const f = await makeFixture('database', {
      adapter,
      baseURL: ORIGIN,
      plugins: [endAllOfAda, multiSession()],
      rateLimit: { login: false },
    });
    const adaId = f.userId;
    await passwordAccounts(adapter).register({ email: 'grace@example.com', password: PASSWORD });
    const c = f.client();
    await signInAs(c, EMAIL);
    endAdaDuringSignIn = true;
    await signInAs(c, 'grace@example.com');
    expect(await f.adapter.listSessions(adaId)).toHaveLength(0);
    expect(await emails(c)).toStrictEqual([['grace@example.com', true]]);
  });

  it('the accounts page escapes a name and an address chosen by their owner', async () => {
    const f = await setup();
    const markup = '"><script>alert(1)</script>';
    await passwordAccounts(f.adapter).register({
      email: 'grace@example.com',
      password: PASSWORD,
      name: `Grace${markup}`,
    });
    const c = f.client();
    await signInAs(c, EMAIL);
    await signInAs(c, 'grace@example.com');
    await f.adapter.updateUser(f.userId, { name: `<img src=x onerror=alert(2)>` });
    const html = await (await c.request('/auth/multi-session', { headers: { accept: 'text/html' } })).text();
    expect(html).toContain('Accounts on this browser');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('"><script>');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x');
  });

  it('GET and HEAD change nothing; cross-site form posts and JSON from another origin are refused', async () => {
    const f = await setup();
    await f.register('grace@example.com');
    const c = f.client();
    await signInAs(c, EMAIL);
    await signInAs(c, 'grace@example.com');
    const adaId = await idOf(c, EMAIL);
    for (const path of ['/auth/multi-session/set-active', '/auth/multi-session/revoke'])
      for (const method of ['GET', 'HEAD']) {
        const res = await c.request(`${path}?sessionId=${adaId}`, { method });
        expect(res.status).toBeGreaterThanOrEqual(400);
      }
    for (const path of ['/auth/multi-session/set-active', '/auth/multi-session/revoke']) {
      const form = await c.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.test' },
        body: new URLSearchParams({ sessionId: adaId }).toString(),
      });
      expect(form.status).toBe(403);
      const noOrigin = await c.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
        body: new URLSearchParams({ sessionId: adaId }).toString(),
      });
      expect(noOrigin.status).toBe(403);
      const json = await c.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', origin: 'https://evil.test' },
        body: JSON.stringify({ sessionId: adaId }),
      });
      expect(json.status).toBe(403);
    }
    expect(await emails(c)).toStrictEqual([
      ['grace@example.com', true],
      [EMAIL, false],
    ]);
    expect(await f.adapter.listSessions(f.userId)).toHaveLength(1);
  });

  it('an impersonation is never kept in the set, nor alive after it ends', async () => {
    const f = await setup({}, [admin()]);
    const root = await f.register('root@example.com');
    await f.adapter.updateUser(root.id, { role: 'admin' });
    const grace = await f.register('grace@example.com');
    const c = f.client();
    await signInAs(c, EMAIL);
    await signInAs(c, 'root@example.com');
    expect((await c.postJson('/auth/admin/impersonate', { userId: grace.id })).status).toBe(200);
    const impersonation = c.cookies.get(SESSION_COOKIE)!;
    expect((await c.session())?.user.email).toBe('grace@example.com');
    expect((await c.postJson('/auth/multi-session/set-active', { sessionId: await idOf(c, EMAIL) })).status).toBe(403);
    expect((await c.postJson('/auth/admin/stop-impersonating', {})).status).toBe(200);
    expect(await emails(c)).toStrictEqual([
      ['root@example.com', true],
      [EMAIL, false],
    ]);
    expect(await sessionWith(f, impersonation)).toBeNull();
    expect(await f.adapter.listSessions(grace.id)).toHaveLength(0);
    // Signing in as someone else from an impersonation does not keep the impersonated account either.
    expect((await c.postJson('/auth/admin/impersonate', { userId: grace.id })).status).toBe(200);
    await signInAs(c, EMAIL);
    expect((await list(c)).map((s) => s.user.email)).not.toContain('grace@example.com');
    expect(await f.adapter.listSessions(grace.id)).toHaveLength(0);
  });
});

describe('multiSession() set planted from another browser (HTTPS)', () => {
  const HTTPS = 'https://app.example.com';
  it('the set cookie is as hard to plant as the session cookie: __Host-, Path=/', async () => {
    const f = await setup({}, [], { baseURL: HTTPS, cookies: { sessionToken: { options: { secure: true } } } });
    await f.register('grace@example.com');
    const c = f.client();
    const at = (path: string, init: RequestInit = {}) =>
      f.auth.handler(new Request(`${HTTPS}${path}`, init), { ip: c.ip });
    // Two sign-ins in one browser, over HTTPS.
    const jar = new Map<string, string>();
    const send = async (path: string, body?: Record<string, string>) => {
      const headers: Record<string, string> = { accept: 'application/json', origin: HTTPS };
      if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      let res: Response;
      if (body) {
        const token = ((await (await at('/auth/csrf', { headers })).json()) as { csrfToken: string }).csrfToken;
        res = await at(path, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json', 'x-csrf-token': token },
          body: JSON.stringify(body),
        });
      } else res = await at(path, { headers });
      for (const line of res.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const eq = pair.indexOf('=');
        if (/max-age=0/i.test(line)) jar.delete(pair.slice(0, eq));
        else jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
      return res;
    };
    await send('/auth/csrf');
    expect((await send('/auth/callback/credentials', { email: EMAIL, password: PASSWORD })).status).toBe(200);
    const second = await send('/auth/callback/credentials', { email: 'grace@example.com', password: PASSWORD });
    expect(second.status).toBe(200);
    const line = second.headers.getSetCookie().find((l) => l.includes('framework.multi-session'))!;
    expect(line).toMatch(/^__Host-framework\.multi-session=/);
    expect(line).toMatch(/; Path=\/(;|$)/i);
    expect(line).not.toMatch(/domain=/i);
    expect(line).toMatch(/secure/i);
    expect(line).toMatch(/httponly/i);
    // A set cookie under the name a sibling host can write (`__Secure-`, any path) is not read.
    const attacker = f.client();
    await signInAs(attacker, EMAIL);
    const attackerToken = attacker.cookies.get(SESSION_COOKIE)!;
    const planted = await seal({ t: [attackerToken] }, SECRET, 'multi-session', 3600, clock);
    jar.set('__Secure-framework.multi-session', planted);
    const res = await send('/auth/multi-session/list');
    const sessions = ((await res.json()) as { sessions: DeviceSessionInfo[] }).sessions;
    expect(sessions.map((s) => s.user.email)).toStrictEqual(['grace@example.com', EMAIL]);
    expect(sessions.filter((s) => s.user.email === EMAIL)).toHaveLength(1);
  });
});
