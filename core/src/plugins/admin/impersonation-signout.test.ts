/**
 * Signing out during an impersonation, under both session strategies: the sealed admin-session cookie is cleared
 * with the attributes it was set with, and both sessions end, so replaying the admin's old session cookie or the
 * sealed cookie afterwards gets nothing back. Signing out "everywhere" from an impersonation never signs the user
 * out of their own devices.
 */
import { describe, expect, it } from 'vitest';
import { passwordAccounts } from '../../password-accounts.js';
import { makeFixture, TestClient } from '../../testing/fixtures.js';
import { admin } from './plugin.js';
import { createMemoryAdminStorage } from './storage/memory.js';

const SEALED = 'framework.admin-session';
const SESSION = 'framework.session-token';
const ADMIN_EMAIL = 'root@example.com';
const ADMIN_PASSWORD = 'correct-horse-battery';

async function setup(strategy: 'database' | 'jwt') {
  const events: string[] = [];
  const f = await makeFixture(strategy, {
    plugins: [admin({ storage: createMemoryAdminStorage() })],
    events: { onImpersonationStopped: (e) => void events.push(`stopped:${e.admin?.id}->${e.user.id}`) },
  });
  const root = await passwordAccounts(f.adapter).register({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  await f.adapter.updateUser(root.id, { role: 'admin' });
  const signIn = async (email?: string, password?: string) => {
    const c = f.client();
    c.ip = '203.0.113.9';
    expect((await (email ? c.signIn(email, password) : c.signIn())).status).toBe(200);
    return c;
  };
  return { ...f, adminId: root.id, events, signedInAdmin: () => signIn(ADMIN_EMAIL, ADMIN_PASSWORD), signIn };
}

/** A fresh client holding exactly these cookies. */
function replay(f: { auth: TestClient['auth'] }, cookies: Record<string, string | undefined>): TestClient {
  const c = new TestClient(f.auth);
  for (const [name, value] of Object.entries(cookies)) if (value !== undefined) c.cookies.set(name, value);
  return c;
}

/** The Set-Cookie line of `name`, split into its lower-cased attributes (without the value). */
function attributesOf(res: Response, name: string): string[] | undefined {
  const line = res.headers.getSetCookie().find((l) => l.startsWith(`${name}=`));
  return line
    ?.split(';')
    .slice(1)
    .map((a) => a.trim().toLowerCase());
}

describe.each(['database', 'jwt'] as const)('signing out during an impersonation (%s sessions)', (strategy) => {
  it('clears the sealed cookie with its own attributes and ends both sessions: no replay brings the admin back', async () => {
    const f = await setup(strategy);
    const c = await f.signedInAdmin();
    const adminSession = c.cookies.get(SESSION)!;
    const start = await c.postJson('/auth/admin/impersonate', { userId: f.userId });
    expect(start.status).toBe(200);
    const sealed = c.cookies.get(SEALED)!;
    const acting = c.cookies.get(SESSION)!;
    expect(sealed).toBeTruthy();

    const out = await c.postJson('/auth/signout', {});
    expect(out.status).toBe(200);
    // Max-Age=0 with the name, path and flags it was set with, so the browser drops that very cookie.
    const cleared = attributesOf(out, SEALED);
    expect(cleared).toContain('max-age=0');
    const set = attributesOf(start, SEALED)!.filter((a) => !a.startsWith('max-age=') && !a.startsWith('expires='));
    expect(cleared!.filter((a) => !a.startsWith('max-age=') && !a.startsWith('expires='))).toEqual(set);
    expect(set).toEqual(expect.arrayContaining(['path=/auth', 'httponly', 'samesite=lax']));
    expect(c.cookies.has(SEALED)).toBe(false);
    expect(await c.session()).toBeNull();
    expect(f.events).toEqual([`stopped:${f.adminId}->${f.userId}`]);

    // The admin's own session cookie, replayed: no session.
    expect(await replay(f, { [SESSION]: adminSession }).session()).toBeNull();
    // The sealed cookie, replayed with the impersonation's or the admin's session cookie: nothing restored.
    for (const session of [acting, adminSession, undefined]) {
      const r = replay(f, { [SESSION]: session, [SEALED]: sealed });
      const stop = await r.postJson('/auth/admin/stop-impersonating', {});
      const body = (await stop.json()) as { restored?: boolean };
      expect(body.restored === true, `stop with session ${session === acting ? 'acting' : 'admin'}`).toBe(false);
      expect((await r.session())?.user.id ?? null).not.toBe(f.adminId);
    }
    // The admin signs in again as usual.
    expect((await f.signedInAdmin()).cookies.has(SESSION)).toBe(true);
  });

  it('a sign-out outside an impersonation clears no sealed cookie and keeps the admin signed in elsewhere', async () => {
    const f = await setup(strategy);
    const elsewhere = await f.signedInAdmin();
    const c = await f.signedInAdmin();
    const out = await c.postJson('/auth/signout', {});
    expect(attributesOf(out, SEALED)).toBeUndefined();
    expect((await elsewhere.session())?.user.id).toBe(f.adminId);
  });

  it('"everywhere" from an impersonation ends only the impersonation, never the user\'s own sessions', async () => {
    const f = await setup(strategy);
    const user = await f.signIn();
    const c = await f.signedInAdmin();
    await c.postJson('/auth/admin/impersonate', { userId: f.userId });
    expect((await c.postJson('/auth/signout', { everywhere: 'true' })).status).toBe(200);
    expect(await c.session()).toBeNull();
    expect((await user.session())?.user.id).toBe(f.userId);
  });
});

describe('signing out during an impersonation (database sessions)', () => {
  it("ends only the admin session sealed in this browser: the admin's other devices stay signed in", async () => {
    const f = await setup('database');
    const laptop = await f.signedInAdmin();
    const c = await f.signedInAdmin();
    await c.postJson('/auth/admin/impersonate', { userId: f.userId });
    await c.postJson('/auth/signout', {});
    expect((await laptop.session())?.user.id).toBe(f.adminId);
    expect(await f.adapter.listSessions(f.adminId)).toHaveLength(1);
    expect(await f.adapter.listSessions(f.userId)).toHaveLength(0);
  });
});
