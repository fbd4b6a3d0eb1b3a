/**
 * `POST /account/unlink` and `POST /account/delete`, in process.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthError } from '../../errors.js';
import { makeFixture, EMAIL, PASSWORD } from '../../testing/fixtures.js';
import type { AuthPlugin } from '../../contract/types.js';
import type { StorageAdapter } from '../../storage/types.js';

afterEach(() => {
  vi.useRealTimers();
});

const github = (userId: string) => ({
  userId,
  type: 'oauth' as const,
  provider: 'github',
  providerAccountId: `gh-${userId}`,
});
const passkey = (userId: string) => ({
  credentialId: `cred-${userId}`,
  userId,
  publicKey: 'pk',
  counter: 0,
  transports: [],
  deviceType: 'singleDevice' as const,
  backedUp: false,
  name: null,
  createdAt: new Date(),
});
const providersOf = async (adapter: StorageAdapter, userId: string) =>
  (await adapter.listAccounts(userId)).map((a) => a.provider).sort();

describe('POST /account/unlink', () => {
  it('refuses to remove the only way to sign in (409 LAST_CREDENTIAL) and keeps it', async () => {
    const { client, adapter, userId } = await makeFixture('database');
    const c = client();
    await c.signIn();
    const res = await c.postJson('/auth/account/unlink', { providerId: 'credentials' });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: { code: 'LAST_CREDENTIAL' } });
    expect(await providersOf(adapter, userId)).toEqual(['credentials']);
  });

  it.each(['database', 'jwt'] as const)(
    'unlinks one method while another remains (%s sessions), then guards the last',
    async (strategy) => {
      const { client, adapter, userId } = await makeFixture(strategy);
      await adapter.linkAccount(github(userId));
      const c = client();
      await c.signIn();
      const res = await c.postJson('/auth/account/unlink', { providerId: 'github' });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true, providerId: 'github' });
      expect(await providersOf(adapter, userId)).toEqual(['credentials']);
      expect((await c.postJson('/auth/account/unlink', { providerId: 'credentials' })).status).toBe(409);
    },
  );

  it('counts passkeys and OAuth accounts: the password can go when either remains', async () => {
    const { client, adapter, userId } = await makeFixture('database');
    await adapter.createAuthenticator(passkey(userId));
    const c = client();
    await c.signIn();
    expect((await c.postJson('/auth/account/unlink', { providerId: 'credentials' })).status).toBe(200);
    expect(await providersOf(adapter, userId)).toEqual([]);
    expect(await adapter.listAuthenticators(userId)).toHaveLength(1);
  });

  it('answers 404 for a provider the caller has not linked, 400 without providerId, 401 when signed out', async () => {
    const { client, adapter, userId } = await makeFixture('database');
    const c = client();
    await c.signIn();
    const none = await c.postJson('/auth/account/unlink', { providerId: 'gitlab' });
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    const missing = await c.postJson('/auth/account/unlink', {});
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: { code: 'INVALID_REQUEST' } });
    expect((await client().postJson('/auth/account/unlink', { providerId: 'credentials' })).status).toBe(401);
    expect(await providersOf(adapter, userId)).toEqual(['credentials']);
  });

  it("cannot touch another user's account", async () => {
    const { client, adapter, userId } = await makeFixture('database');
    const other = await adapter.createUser({ email: 'bob@example.com' });
    await adapter.linkAccount(github(other.id));
    await adapter.linkAccount({ ...github(userId), providerAccountId: 'ada-gh' });
    const c = client();
    await c.signIn();
    expect((await c.postJson('/auth/account/unlink', { providerId: 'github' })).status).toBe(200);
    expect(await providersOf(adapter, other.id)).toEqual(['github']);
  });
});

describe('POST /account/delete', () => {
  it.each(['database', 'jwt'] as const)(
    'deletes a freshly signed-in user with everything they own (%s sessions)',
    async (strategy) => {
      const order: string[] = [];
      const plugin: AuthPlugin = { id: 'rows', hooks: { userDeleted: (id) => void order.push(`plugin:${id}`) } };
      let seenInStorage = false;
      const { client, adapter, userId } = await makeFixture(strategy, {
        plugins: [plugin],
        callbacks: {
          async onDeleteUser({ user }) {
            order.push(`callback:${user.email}`);
            seenInStorage = (await adapter.getUser(user.id)) !== null;
          },
        },
      });
      await adapter.linkAccount(github(userId));
      await adapter.createAuthenticator(passkey(userId));
      const [a, b] = [client(), client()];
      await a.signIn();
      await b.signIn();
      const res = await a.postJson('/auth/account/delete', {});
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
      expect(res.headers.get('set-cookie')).toMatch(/framework\.session-token=;.*Max-Age=0/i);
      expect(order).toEqual([`callback:${EMAIL}`, `plugin:${userId}`]);
      expect(seenInStorage).toBe(true);
      expect(await adapter.getUser(userId)).toBeNull();
      expect(await adapter.listAccounts(userId)).toEqual([]);
      expect(await adapter.listAuthenticators(userId)).toEqual([]);
      expect(await adapter.listSessions(userId)).toEqual([]);
      expect(await a.session()).toBeNull();
      // The other browser's session ends too (for JWT through the session version: its next check).
      expect(await b.session()).toBeNull();
      expect(await a.signIn().then((r) => r.status)).toBe(401);
    },
  );

  it.each(['database', 'jwt'] as const)(
    'needs the password once the sign-in is older than freshAge (%s sessions)',
    async (strategy) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const { client, adapter, userId } = await makeFixture(strategy, {
        session: { strategy, freshAge: 60, revalidateAge: 0 },
      });
      const c = client();
      await c.signIn();
      vi.setSystemTime(Date.now() + 61_000);
      const stale = await c.postJson('/auth/account/delete', {});
      expect(stale.status).toBe(403);
      expect(await stale.json()).toMatchObject({ error: { code: 'SESSION_NOT_FRESH' } });
      const wrong = await c.postJson('/auth/account/delete', { password: 'not-my-password' });
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toMatchObject({ error: { code: 'INVALID_CREDENTIALS' } });
      expect(await adapter.getUser(userId)).not.toBeNull();
      expect((await c.session())?.user.id).toBe(userId);
      const right = await c.postJson('/auth/account/delete', { password: PASSWORD });
      expect(right.status).toBe(200);
      expect(await adapter.getUser(userId)).toBeNull();
    },
  );

  it('a session just inside freshAge needs no password', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { client, adapter, userId } = await makeFixture('database', {
      session: { strategy: 'database', freshAge: 60 },
    });
    const c = client();
    await c.signIn();
    vi.setSystemTime(Date.now() + 59_000);
    expect((await c.postJson('/auth/account/delete', {})).status).toBe(200);
    expect(await adapter.getUser(userId)).toBeNull();
  });

  it('a password sent for an account without one is refused', async () => {
    const { client, adapter } = await makeFixture('database');
    const user = await adapter.createUser({ email: 'oauth-only@example.com' });
    await adapter.linkAccount(github(user.id));
    const c = client();
    const { headers } = await c.auth.createSession(user.id);
    c.store(new Response(null, { headers }));
    const res = await c.postJson('/auth/account/delete', { password: 'anything-at-all' });
    expect(res.status).toBe(401);
    expect(await adapter.getUser(user.id)).not.toBeNull();
  });

  it('an AuthError from onDeleteUser stops the deletion with its code', async () => {
    const { client, adapter, userId } = await makeFixture('database', {
      callbacks: {
        onDeleteUser() {
          throw new AuthError('Cancel your subscription first', { code: 'FORBIDDEN', status: 403 });
        },
      },
    });
    const c = client();
    await c.signIn();
    const res = await c.postJson('/auth/account/delete', {});
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: { code: 'FORBIDDEN', message: 'Cancel your subscription first' } });
    expect(await adapter.getUser(userId)).not.toBeNull();
    expect((await c.session())?.user.id).toBe(userId);
  });

  it('a plain throw from onDeleteUser answers CALLBACK_ERROR and deletes nothing', async () => {
    const { client, adapter, userId } = await makeFixture('database', {
      callbacks: {
        onDeleteUser() {
          throw new Error('database is down');
        },
      },
    });
    const c = client();
    await c.signIn();
    const res = await c.postJson('/auth/account/delete', {});
    expect(await res.json()).toMatchObject({ error: { code: 'CALLBACK_ERROR' } });
    expect(JSON.stringify(await adapter.getUser(userId))).toContain(EMAIL);
  });

  it('browsers are sent to the callbackUrl', async () => {
    const { client } = await makeFixture('database');
    const c = client();
    await c.signIn();
    const res = await c.postForm('/auth/account/delete', { callbackUrl: '/goodbye' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/goodbye');
  });

  it('password guesses count on the login limiter', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { client, adapter, userId } = await makeFixture('database', {
      session: { strategy: 'database', freshAge: 0 },
    });
    const c = client();
    await c.signIn();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await c.postJson('/auth/account/delete', { password: `guess-${i}-guess` })).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
    expect(await adapter.getUser(userId)).not.toBeNull();
  });
});
