/**
 * `multiSession()`: when the browser's active session ends (its account deleted, the session revoked from the
 * sessions page, a ban, expiry, a revocation elsewhere), the next still-live account of the browser becomes active
 * (its session cookie is set), accounts that ended drop out of the set, and the browser ends signed out when none is
 * left. Through `auth.handler` with a cookie jar, on memory, SQLite, PostgreSQL and MySQL/MariaDB.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { CreateAuthOptions } from '../../auth.js';
import { passwordAccounts } from '../../password-accounts.js';
import type { StorageAdapter } from '../../storage/types.js';
import { EMAIL, ORIGIN, PASSWORD, makeFixture } from '../../testing/fixtures.js';
import { admin } from '../admin/index.js';
import { clientsOwnAddress, emails, idOf, multiSessionAdapters, SET_COOKIE, signInAs } from './fixture.test-helpers.js';
import { multiSession } from './index.js';

const { adapters, dropAll } = await multiSessionAdapters('multi_session_promote');
afterAll(dropAll);

const GRACE = 'grace@example.com';
const HOPPER = 'hopper@example.com';

async function setup(open: () => Promise<StorageAdapter>, overrides: Partial<CreateAuthOptions> = {}) {
  const adapter = await open();
  const f = await makeFixture('database', {
    adapter,
    baseURL: ORIGIN,
    emailAndPassword: {},
    plugins: [multiSession(), admin()],
    ...overrides,
  });
  await f.auth.migrate();
  const passwords = passwordAccounts(adapter);
  const grace = await passwords.register({ email: GRACE, password: PASSWORD, name: 'Grace' });
  const hopper = await passwords.register({ email: HOPPER, password: PASSWORD, name: 'Hopper' });
  const root = await passwords.register({ email: 'root@example.com', password: PASSWORD });
  await adapter.updateUser(root.id, { role: 'admin' });
  return { ...f, client: clientsOwnAddress(() => f.client()), graceId: grace.id, hopperId: hopper.id };
}

/** The session `GET /session` answers, read with the browser's cookies, changing nothing in the jar. */
const sessionEmail = async (f: Awaited<ReturnType<typeof setup>>, cookie: string) => {
  const res = await f.auth.handler(
    new Request(`${ORIGIN}/auth/session`, { headers: { cookie, accept: 'application/json' } }),
  );
  return ((await res.json()) as { user: { email: string } } | null)?.user.email ?? null;
};

describe.each(adapters)('multiSession() when the active session ends, on %s', (_name, open) => {
  it('deleting the active account makes the next account active; deleting the last signs the browser out', async () => {
    const f = await setup(open);
    const c = f.client();
    await signInAs(c, EMAIL);
    await signInAs(c, GRACE);
    await signInAs(c, HOPPER);
    const graceId = await idOf(c, GRACE);
    const deleted = await c.postJson('/auth/account/delete', { password: PASSWORD });
    expect(deleted.status).toBe(200);
    expect(await f.adapter.getUserByEmail(HOPPER)).toBeNull();
    // The answer itself sets the next account's cookie: the browser is Grace's without another request.
    const promoted = deleted.headers
      .getSetCookie()
      .filter((l) => l.startsWith(`${f.auth.config.cookies.sessionToken.name}=`));
    expect(promoted).toHaveLength(1);
    expect(promoted[0]).toContain(`=${graceId}.`);
    expect((await c.session())?.user.email).toBe(GRACE);
    expect(await emails(c)).toStrictEqual([
      [GRACE, true],
      [EMAIL, false],
    ]);

    expect((await c.postJson('/auth/account/delete', { password: PASSWORD })).status).toBe(200);
    expect((await c.session())?.user.email).toBe(EMAIL);
    expect(await emails(c)).toStrictEqual([[EMAIL, true]]);
    expect(c.cookies.has(SET_COOKIE)).toBe(false);

    expect((await c.postJson('/auth/account/delete', { password: PASSWORD })).status).toBe(200);
    expect(await c.session()).toBeNull();
    expect(await emails(c)).toStrictEqual([]);
  });

  it('revoking the current session from the sessions page makes the next account active', async () => {
    const f = await setup(open);
    const c = f.client();
    await signInAs(c, EMAIL);
    await signInAs(c, GRACE);
    const current = await idOf(c, GRACE);
    const res = await c.postJson('/auth/sessions/revoke', { id: current });
    expect(((await res.json()) as { revoked: number }).revoked).toBe(1);
    expect((await c.session())?.user.email).toBe(EMAIL);
    expect(await emails(c)).toStrictEqual([[EMAIL, true]]);
    expect(c.cookies.has(SET_COOKIE)).toBe(false);
  });

  it('a ban of the active user: the next read makes the next live account active, dropping ended ones', async () => {
    const f = await setup(open);
    const c = f.client();
    await signInAs(c, EMAIL);
    await signInAs(c, GRACE);
    await signInAs(c, HOPPER);
    // Grace's kept session is revoked elsewhere too: she drops out, Ada is next.
    await f.adapter.deleteSession(await idOf(c, GRACE));
    const a = f.client();
    await signInAs(a, 'root@example.com');
    expect((await a.postJson('/auth/admin/users/ban', { userId: f.hopperId })).status).toBe(200);

    const before = c.cookieHeader();
    expect((await c.session())?.user.email).toBe(EMAIL);
    expect(await emails(c)).toStrictEqual([[EMAIL, true]]);
    expect(c.cookies.has(SET_COOKIE)).toBe(false);
    // A replay of the cookies the browser held before reads the same: Ada, the only one live.
    expect(await sessionEmail(f, before)).toBe(EMAIL);
  });

  it('the list promotes too: an active session revoked elsewhere gives way to the next account', async () => {
    const f = await setup(open);
    const c = f.client();
    await signInAs(c, EMAIL);
    await signInAs(c, GRACE);
    const graceSessions = await f.adapter.listSessions(f.graceId);
    expect(graceSessions).toHaveLength(1);
    await f.adapter.deleteSession(graceSessions[0]!.id);
    expect(await emails(c)).toStrictEqual([[EMAIL, true]]);
    expect((await c.session())?.user.email).toBe(EMAIL);
    expect(c.cookies.has(SET_COOKIE)).toBe(false);
  });
});

describe('multiSession() promotion attacks', () => {
  it('a tampered set promotes nothing: the browser whose active session ended is signed out and the set cleared', async () => {
    const [, open] = adapters[0]!;
    const f = await setup(open);
    const c = f.client();
    await signInAs(c, EMAIL);
    await signInAs(c, GRACE);
    const sealed = c.cookies.get(SET_COOKIE)!;
    // One character of the sealed payload changed: the cookie no longer opens.
    const at = sealed.length - 10;
    c.cookies.set(SET_COOKIE, `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`);
    await f.adapter.deleteSession((await f.adapter.listSessions(f.graceId))[0]!.id);
    expect(await c.session()).toBeNull();
    expect(c.cookies.has(SET_COOKIE)).toBe(false);
    // Ada's session is untouched (still live in storage), only out of this browser's reach.
    expect(await f.adapter.listSessions(f.userId)).toHaveLength(1);
  });
});

describe('multiSession() when the active session expires', () => {
  it('GET /session answers the kept account, with its cookie, once the active session expired', async () => {
    let now = Date.now();
    const [, open] = adapters[0]!;
    // Sessions last an hour and never slide, so which one expires first is known.
    const session = { strategy: 'database' as const, maxAge: 3600, updateAge: 3600 };
    const f = await setup(open, { clock: { now: () => now }, session });
    const c = f.client();
    await signInAs(c, GRACE);
    now += 1800 * 1000;
    await signInAs(c, EMAIL);
    // Grace active again: her session ends at the hour, Ada's half an hour later.
    expect((await c.postJson('/auth/multi-session/set-active', { sessionId: await idOf(c, GRACE) })).status).toBe(200);
    expect((await c.session())?.user.email).toBe(GRACE);
    now += 1801 * 1000;
    const res = await c.request('/auth/session', { headers: { accept: 'application/json' } });
    expect(((await res.json()) as { user: { email: string } }).user.email).toBe(EMAIL);
    expect(await emails(c)).toStrictEqual([[EMAIL, true]]);
    expect(c.cookies.has(SET_COOKIE)).toBe(false);
    now += 1800 * 1000;
    expect(await c.session()).toBeNull();
  });
});
