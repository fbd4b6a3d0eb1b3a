/**
 * `admin()` in process, under both session strategies: who may use it, paged search over storage, create, roles,
 * bans (sessions end, every sign-in refused, expiry), impersonation (marked, capped, restored, refused for admins)
 * and the attacks on each.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CreateAuthOptions } from '../../auth.js';
import type { AuthPlugin } from '../../contract/types.js';
import { badRequest } from '../../errors.js';
import { passwordAccounts } from '../../password-accounts.js';
import { passkey } from '../passkey/provider.js';
import { makeFixture, EMAIL, PASSWORD, type TestClient } from '../../testing/fixtures.js';
import { admin } from './plugin.js';
import type { AdminOptions } from './options.js';
import { createMemoryAdminStorage } from './storage/memory.js';

afterEach(() => vi.useRealTimers());

const T0 = Date.UTC(2026, 10, 24, 12, 0, 0);
const ADMIN_EMAIL = 'root@example.com';
const ADMIN_PASSWORD = 'correct-horse-battery';
const errorCode = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;

async function setup(
  strategy: 'database' | 'jwt',
  options: Partial<AdminOptions> = {},
  overrides: Partial<CreateAuthOptions> = {},
) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
  const storage = createMemoryAdminStorage();
  const events: string[] = [];
  const log = (name: string) => (e: { user: { id: string } | null; admin?: { id: string } | null }) =>
    void events.push(`${name}:${e.admin?.id ?? '-'}->${e.user?.id ?? '-'}`);
  const f = await makeFixture(strategy, {
    plugins: [admin({ storage, ...options })],
    events: {
      onUserBanned: log('banned'),
      onUserUnbanned: log('unbanned'),
      onImpersonationStarted: log('impersonation-started'),
      onImpersonationStopped: log('impersonation-stopped'),
      onUserRemoved: log('removed'),
      onUserCreated: log('created'),
    },
    ...overrides,
  });
  const root = await passwordAccounts(f.adapter).register({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  await f.adapter.updateUser(root.id, { role: 'admin' });
  const signedInAdmin = async () => {
    const c = f.client();
    expect((await c.signIn(ADMIN_EMAIL, ADMIN_PASSWORD)).status).toBe(200);
    return c;
  };
  const signedInUser = async () => {
    const c = f.client();
    expect((await c.signIn()).status).toBe(200);
    return c;
  };
  return { ...f, storage, events, adminId: root.id, signedInAdmin, signedInUser };
}

const getJson = (c: TestClient, path: string) => c.request(path, { headers: { accept: 'application/json' } });

describe.each(['database', 'jwt'] as const)('admin() with %s sessions', (strategy) => {
  it('is for admins only: 401 without a session, 403 FORBIDDEN for a user, on reads and on every POST', async () => {
    const f = await setup(strategy);
    const anonymous = f.client();
    expect((await getJson(anonymous, '/auth/admin/users')).status).toBe(401);
    const user = await f.signedInUser();
    const list = await getJson(user, '/auth/admin/users');
    expect(list.status).toBe(403);
    expect(await errorCode(list)).toBe('FORBIDDEN');
    for (const path of ['users/ban', 'users/set-role', 'users/remove', 'impersonate', 'users/create']) {
      const res = await user.postJson(`/auth/admin/${path}`, { userId: f.adminId, role: 'admin', email: 'x@y.z' });
      expect(res.status, path).toBe(403);
    }
    expect((await f.adapter.getUser(f.adminId))?.role).toBe('admin');
    const signedOut = await anonymous.request('/auth/admin?search=x', { headers: { accept: 'text/html' } });
    expect([signedOut.status, signedOut.headers.get('location')]).toEqual([
      303,
      `/auth/signin?callbackUrl=${encodeURIComponent('/auth/admin?search=x')}`,
    ]);
    const page = await user.request('/auth/admin', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(403);
    expect(await page.text()).not.toContain(ADMIN_EMAIL);
  });

  it('a demoted admin loses access at once', async () => {
    const f = await setup(strategy);
    const c = await f.signedInAdmin();
    expect((await getJson(c, '/auth/admin/users')).status).toBe(200);
    await f.adapter.updateUser(f.adminId, { role: 'member' });
    expect([401, 403]).toContain((await getJson(c, '/auth/admin/users')).status);
  });

  it('bans: the sessions end, every sign-in answers USER_BANNED, unban restores; an expiring ban lapses', async () => {
    const f = await setup(strategy);
    const victim = await f.signedInUser();
    const c = await f.signedInAdmin();
    const res = await c.postJson('/auth/admin/users/ban', { userId: f.userId, reason: 'spam' });
    expect(res.status).toBe(200);
    expect(await victim.session()).toBeNull();
    const again = await f.client().signIn();
    expect(again.status).toBe(403);
    expect(await errorCode(again)).toBe('USER_BANNED');
    const listed = (await (await getJson(c, `/auth/admin/users?search=${EMAIL}`)).json()) as {
      users: Array<{ id: string; banned: { reason: string } | null }>;
    };
    expect(listed.users).toMatchObject([{ id: f.userId, banned: { reason: 'spam', bannedBy: f.adminId } }]);
    expect((await c.postJson('/auth/admin/users/unban', { userId: f.userId })).status).toBe(200);
    expect((await f.client().signIn()).status).toBe(200);

    await c.postJson('/auth/admin/users/ban', { userId: f.userId, expiresIn: 3600 });
    expect((await f.client().signIn()).status).toBe(403);
    vi.setSystemTime(T0 + 3601_000);
    expect((await f.client().signIn()).status).toBe(200);
    expect(f.events).toEqual([
      `banned:${f.adminId}->${f.userId}`,
      `unbanned:${f.adminId}->${f.userId}`,
      `banned:${f.adminId}->${f.userId}`,
    ]);
  });

  it('refuses acting on oneself, unknown users and malformed input with stable 4xx codes', async () => {
    const f = await setup(strategy);
    const c = await f.signedInAdmin();
    const self = await c.postJson('/auth/admin/users/ban', { userId: f.adminId });
    expect([self.status, await errorCode(self)]).toEqual([400, 'INVALID_REQUEST']);
    const unknown = await c.postJson('/auth/admin/users/ban', { userId: 'nobody' });
    expect([unknown.status, await errorCode(unknown)]).toEqual([404, 'USER_NOT_FOUND']);
    const noId = await c.postJson('/auth/admin/users/revoke-sessions', {});
    expect(noId.status).toBe(400);
    const badRole = await c.postJson('/auth/admin/users/set-role', { userId: f.userId, role: '<script>' });
    expect(badRole.status).toBe(400);
    const badExpiry = await c.postJson('/auth/admin/users/ban', { userId: f.userId, expiresIn: '-5' });
    expect(badExpiry.status).toBe(400);
    expect((await getJson(c, '/auth/admin/users?limit=1000')).status).toBe(400);
    expect(await f.storage.getBan(f.userId)).toBeNull();
  });

  it('impersonation: marked on the session, capped at one hour without sliding, and stopped back to the admin', async () => {
    const f = await setup(strategy);
    const c = await f.signedInAdmin();
    const start = await c.postJson('/auth/admin/impersonate', { userId: f.userId });
    expect(start.status).toBe(200);
    const session = (await (await getJson(c, '/auth/session')).json()) as {
      user: { id: string };
      impersonatedBy: string;
      expires: string;
    };
    expect(session.user.id).toBe(f.userId);
    expect(session.impersonatedBy).toBe(f.adminId);
    expect(Date.parse(session.expires)).toBe(T0 + 3600_000);
    // While impersonating, the admin API is closed, even to the admin behind it.
    expect((await getJson(c, '/auth/admin/users')).status).toBe(403);
    vi.setSystemTime(T0 + 3000_000);
    const later = (await (await getJson(c, '/auth/session')).json()) as { expires: string } | null;
    expect(Date.parse(later!.expires)).toBeLessThanOrEqual(T0 + 3600_000);

    const stop = await c.postJson('/auth/admin/stop-impersonating', {});
    expect(stop.status).toBe(200);
    expect(await stop.json()).toMatchObject({ ok: true, restored: true });
    const back = await c.session();
    expect(back?.user.id).toBe(f.adminId);
    expect(back).not.toHaveProperty('impersonatedBy');
    const twice = await c.postJson('/auth/admin/stop-impersonating', {});
    expect([twice.status, await errorCode(twice)]).toEqual([400, 'NOT_IMPERSONATING']);
    expect(f.events).toEqual([
      `impersonation-started:${f.adminId}->${f.userId}`,
      `impersonation-stopped:${f.adminId}->${f.userId}`,
    ]);
  });

  it('an impersonation cannot change credentials, unlink or delete the account', async () => {
    // Built-in email + password accounts (their credentials provider replaces the fixture's), and passkeys.
    const f = await setup(
      strategy,
      {},
      {
        emailAndPassword: {},
        providers: [passkey({ rpName: 'Test', rpId: 'app.test', origin: 'http://app.test' })],
      },
    );
    const c = await f.signedInAdmin();
    await c.postJson('/auth/admin/impersonate', { userId: f.userId });
    for (const [path, body] of [
      ['/auth/password/change', { currentPassword: PASSWORD, newPassword: 'admin-chosen-password' }],
      ['/auth/account/delete', { password: PASSWORD }],
      ['/auth/account/unlink', { provider: 'credentials', providerAccountId: f.userId }],
      ['/auth/passkey/register/options', {}],
    ] as const) {
      const res = await c.postJson(path, body);
      expect([res.status, await errorCode(res)], path).toEqual([403, 'IMPERSONATION_RESTRICTED']);
    }
    expect(await f.adapter.getUser(f.userId)).not.toBeNull();
    expect((await f.client().signIn()).status).toBe(200);
  });

  it('an impersonation session ends after its hour', async () => {
    const f = await setup(strategy);
    const c = await f.signedInAdmin();
    await c.postJson('/auth/admin/impersonate', { userId: f.userId });
    vi.setSystemTime(T0 + 3601_000);
    expect(await c.session()).toBeNull();
  });

  it('cannot impersonate another admin unless allowed', async () => {
    const f = await setup(strategy);
    await f.adapter.updateUser(f.userId, { role: 'admin' });
    const c = await f.signedInAdmin();
    const res = await c.postJson('/auth/admin/impersonate', { userId: f.userId });
    expect([res.status, await errorCode(res)]).toEqual([403, 'CANNOT_IMPERSONATE_ADMIN']);
    expect((await c.session())?.user.id).toBe(f.adminId);
    const g = await setup(strategy, { allowImpersonatingAdmins: true });
    await g.adapter.updateUser(g.userId, { role: 'admin' });
    const d = await g.signedInAdmin();
    expect((await d.postJson('/auth/admin/impersonate', { userId: g.userId })).status).toBe(200);
  });

  it('a stolen or foreign admin-session cookie restores nothing: stopping then signs the browser out', async () => {
    const f = await setup(strategy);
    const c = await f.signedInAdmin();
    await c.postJson('/auth/admin/impersonate', { userId: f.userId });
    c.cookies.set('framework.admin-session', 'forged.value');
    const stop = await c.postJson('/auth/admin/stop-impersonating', {});
    expect(await stop.json()).toMatchObject({ ok: true, restored: false });
    expect(await c.session()).toBeNull();
  });
});

describe('admin() users over storage', () => {
  it('pages and searches in storage, and every page carries the users with their bans', async () => {
    const f = await setup('database');
    for (let i = 0; i < 5; i++)
      await f.adapter.createUser({ id: `m-${i}`, email: `member${i}@corp.test`, name: `Member ${i}` });
    const c = await f.signedInAdmin();
    const seen: string[] = [];
    let after = '';
    for (let pages = 0; pages < 5; pages++) {
      const res = await getJson(c, `/auth/admin/users?search=CORP.TEST&limit=2${after ? `&after=${after}` : ''}`);
      const body = (await res.json()) as { users: Array<{ id: string }>; next: string | null };
      seen.push(...body.users.map((u) => u.id));
      if (!body.next) break;
      after = body.next;
    }
    expect(seen).toEqual(['m-0', 'm-1', 'm-2', 'm-3', 'm-4']);
  });

  it("a search's next page follows a cursor holding a long matched name", async () => {
    const f = await setup('database');
    const long = `Longname ${'x'.repeat(400)}`;
    await f.adapter.createUser({ id: 'l-1', email: 'l1@corp.test', name: `${long} 1` });
    await f.adapter.createUser({ id: 'l-2', email: 'l2@corp.test', name: `${long} 2` });
    const c = await f.signedInAdmin();
    const first = (await (await getJson(c, '/auth/admin/users?search=longname&limit=1')).json()) as {
      users: Array<{ id: string }>;
      next: string;
    };
    expect(first.users.map((u) => u.id)).toEqual(['l-1']);
    const res = await getJson(c, `/auth/admin/users?search=longname&limit=1&after=${encodeURIComponent(first.next)}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { users: Array<{ id: string }> }).users.map((u) => u.id)).toEqual(['l-2']);
  });

  it('creates users (with a password they can sign in with), refuses a taken email, and sets roles', async () => {
    const f = await setup('database');
    const c = await f.signedInAdmin();
    const res = await c.postJson('/auth/admin/users/create', {
      email: 'new@example.com',
      password: 'a-long-password',
      name: 'New',
      role: 'editor',
    });
    expect(res.status).toBe(200);
    const { user } = (await res.json()) as { user: { id: string; role: string } };
    expect(user.role).toBe('editor');
    expect((await f.client().signIn('new@example.com', 'a-long-password')).status).toBe(200);
    const taken = await c.postJson('/auth/admin/users/create', { email: 'NEW@example.com' });
    expect([taken.status, await errorCode(taken)]).toEqual([409, 'EMAIL_TAKEN']);
    expect((await c.postJson('/auth/admin/users/set-role', { userId: user.id, role: 'viewer' })).status).toBe(200);
    expect((await f.adapter.getUser(user.id))?.role).toBe('viewer');
  });

  it("runs the app's new-password checks (a breached-password plugin) on a password it sets", async () => {
    const refuseBreached: AuthPlugin<'refuseBreached'> = {
      id: 'refuseBreached',
      hooks: {
        checkNewPassword(password) {
          if (password === 'a-breached-password') throw badRequest('This password is breached');
        },
      },
    };
    const f = await setup(
      'database',
      {},
      { plugins: [admin({ storage: createMemoryAdminStorage() }), refuseBreached] },
    );
    const c = await f.signedInAdmin();
    const res = await c.postJson('/auth/admin/users/create', {
      email: 'new@example.com',
      password: 'a-breached-password',
    });
    expect(res.status).toBe(400);
    expect(await f.adapter.getUserByEmail('new@example.com')).toBeNull();
    const ok = await c.postJson('/auth/admin/users/create', { email: 'new@example.com', password: 'a-fine-password' });
    expect(ok.status).toBe(200);
  });

  it('removes a user with their sessions; revoke-sessions ends them without removing', async () => {
    const f = await setup('database');
    const victim = await f.signedInUser();
    const c = await f.signedInAdmin();
    const revoke = await c.postJson('/auth/admin/users/revoke-sessions', { userId: f.userId });
    expect(await revoke.json()).toMatchObject({ ok: true, revoked: 1 });
    expect(await victim.session()).toBeNull();
    expect((await c.postJson('/auth/admin/users/remove', { userId: f.userId })).status).toBe(200);
    expect(await f.adapter.getUser(f.userId)).toBeNull();
    expect((await f.client().signIn(EMAIL, PASSWORD)).status).toBe(401);
  });

  it('the no-JS page lists users and bans and unbans them with CSRF-checked forms', async () => {
    const f = await setup('database');
    const c = await f.signedInAdmin();
    const page = await c.request('/auth/admin', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(EMAIL);
    expect(html).toContain('name="csrfToken"');
    const banned = await c.postForm('/auth/admin/users/ban', { userId: f.userId, reason: '<b>spam</b>' });
    expect(banned.status).toBe(200);
    const after = await banned.text();
    expect(after).toContain('Banned: &lt;b&gt;spam&lt;/b&gt;');
    expect(after).not.toContain('<b>spam</b>');
    const noToken = await c.request('/auth/admin/users/unban', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://app.test' },
      body: new URLSearchParams({ userId: f.userId }).toString(),
    });
    expect(noToken.status).toBe(403);
    expect(await f.storage.getBan(f.userId)).not.toBeNull();
    expect((await c.postForm('/auth/admin/users/unban', { userId: f.userId })).status).toBe(200);
    expect(await f.storage.getBan(f.userId)).toBeNull();
  });
});
