/**
 * Every read of a plugin-resolved credential (an API key) passes the checks a sign-in would: a banned or deleted
 * user's key is refused on the very next request (401 `CREDENTIAL_REFUSED`), an unbanned user's key works again, an
 * unverified email is refused when the app requires verification, and a credential cannot claim an impersonation.
 * Run on the memory adapter and on SQLite (adapter and ban storage in SQL).
 */
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { createAuth } from '../../auth.js';
import { AuthError } from '../../errors.js';
import { passwordAccounts } from '../../password-accounts.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import { createSqliteAdapter } from '../../storage/sql/sqlite.js';
import type { StorageAdapter } from '../../storage/types.js';
import { ORIGIN, SECRET } from '../../testing/fixtures.js';
import { createSqlAdminStorage } from '../admin/storage/sql.js';
import { createMemoryAdminStorage } from '../admin/storage/memory.js';
import { isPluginCredential } from '../credential.js';
import type { AuthPlugin } from '../../contract/types.js';
import { surfacesFixture } from './surfaces-fixture.js';

const adapters: [string, () => { adapter: StorageAdapter; admin: ReturnType<typeof createMemoryAdminStorage> }][] = [
  ['memory', () => ({ adapter: createMemoryAdapter(), admin: createMemoryAdminStorage() })],
  [
    'sqlite',
    () => ({
      adapter: createSqliteAdapter({ filename: ':memory:' }),
      admin: createSqlAdminStorage(
        new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) }),
      ),
    }),
  ],
];

describe.each(adapters)('API keys and the account state, on %s', (_name, make) => {
  async function setup() {
    const { adapter, admin: storage } = make();
    await storage.migrate();
    const f = await surfacesFixture({ adapter, admin: { storage } });
    // A second admin, who bans the key's owner.
    const other = await passwordAccounts(f.adapter).register({ email: 'root@example.com', password: 'correct-horse' });
    await f.adapter.updateUser(other.id, { role: 'admin' });
    const root = f.client();
    expect((await root.signIn('root@example.com', 'correct-horse')).status).toBe(200);
    const read = (key: string) => f.auth.getSession(f.request(key));
    return { ...f, root, read };
  }

  it('a ban refuses every key of the user on the very next request; the unban restores them', async () => {
    const { key, root, userId, read } = await setup();
    const keys = [await key(), await key({ permissions: 'posts:read' }), await key({ permissions: '' })];
    for (const k of keys) expect((await read(k)).user?.id).toBe(userId);
    expect((await root.postJson('/auth/admin/users/ban', { userId })).status).toBe(200);
    for (const k of keys)
      await expect(read(k)).rejects.toMatchObject({
        code: 'CREDENTIAL_REFUSED',
        status: 401,
      } satisfies Partial<AuthError>);
    expect((await root.postJson('/auth/admin/users/unban', { userId })).status).toBe(200);
    for (const k of keys) expect((await read(k)).user?.id).toBe(userId);
  });

  it('a timed ban refuses the key only while it lasts', async () => {
    const { key, root, userId, read } = await setup();
    const k = await key();
    expect((await root.postJson('/auth/admin/users/ban', { userId, expiresIn: 60 })).status).toBe(200);
    await expect(read(k)).rejects.toMatchObject({ code: 'CREDENTIAL_REFUSED' });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    try {
      expect((await read(k)).user?.id).toBe(userId);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a deleted user’s key is refused: revoked by the admin route, 401 CREDENTIAL_REFUSED when removed in storage', async () => {
    const viaRoute = await setup();
    const k1 = await viaRoute.key();
    await viaRoute.tenants.removeMember(viaRoute.orgId, viaRoute.userId); // the last owner cannot be removed
    expect((await viaRoute.root.postJson('/auth/admin/users/remove', { userId: viaRoute.userId })).status).toBe(200);
    // The route revokes the user's keys: the key reads as no one (requireAuth answers 401).
    expect((await viaRoute.read(k1)).user).toBeNull();
    const direct = await setup();
    const k2 = await direct.key();
    await direct.adapter.deleteUser(direct.userId);
    await expect(direct.read(k2)).rejects.toMatchObject({ code: 'CREDENTIAL_REFUSED', status: 401 });
    const answer = direct.auth.toResponse(await direct.read(k2).catch((e: unknown) => e), direct.request(k2));
    expect(answer?.status).toBe(401);
    expect(((await answer!.json()) as { error: { code: string } }).error.code).toBe('CREDENTIAL_REFUSED');
  });

  it('a key session is marked as a plugin credential; a cookie session is not', async () => {
    const { key, read, browser, auth } = await setup();
    const state = await read(await key());
    expect([isPluginCredential(state.session), isPluginCredential(state.user)]).toStrictEqual([true, true]);
    expect(JSON.stringify(state.session)).not.toContain('pluginCredential');
    const cookie = await auth.getSession(new Request(`${ORIGIN}/x`, { headers: { cookie: browser.cookieHeader() } }));
    expect([isPluginCredential(cookie.session), isPluginCredential(cookie.user)]).toStrictEqual([false, false]);
  });
});

describe('credential checks for any plugin that resolves sessions', () => {
  /** A plugin reading `x-test-user: <id>` as that user, optionally claiming an impersonation. */
  const headerPlugin = (adapter: StorageAdapter, impersonatedBy?: string): AuthPlugin => ({
    id: 'headerCredential',
    hooks: {
      async resolveSession(request) {
        const id = request.headers.get('x-test-user');
        const user = id ? await adapter.getUser(id) : null;
        if (!user) return undefined;
        const session = { user, expires: new Date(Date.now() + 60_000), ...(impersonatedBy ? { impersonatedBy } : {}) };
        return { session, user, expired: false, headers: new Headers() };
      },
    },
  });

  async function setup(options: { requireEmailVerification?: boolean; impersonatedBy?: string } = {}) {
    const adapter = createMemoryAdapter();
    const user = await adapter.createUser({ email: 'ann@example.com', emailVerified: null });
    const auth = createAuth({
      secret: SECRET,
      adapter,
      providers: [],
      logger: { error: () => {}, warn: () => {} },
      ...(options.requireEmailVerification
        ? { emailAndPassword: { requireEmailVerification: true, sendVerificationEmail: () => {} } }
        : {}),
      plugins: [headerPlugin(adapter, options.impersonatedBy)],
    });
    const read = () => auth.getSession(new Request(`${ORIGIN}/x`, { headers: { 'x-test-user': user.id } }));
    return { adapter, user, read };
  }

  it('an unverified email is refused (403 EMAIL_NOT_VERIFIED) only when the app requires verification', async () => {
    expect((await (await setup()).read()).user?.email).toBe('ann@example.com');
    const strict = await setup({ requireEmailVerification: true });
    await expect(strict.read()).rejects.toMatchObject({ code: 'EMAIL_NOT_VERIFIED', status: 403 });
    await strict.adapter.updateUser(strict.user.id, { emailVerified: new Date() });
    expect((await strict.read()).user?.id).toBe(strict.user.id);
  });

  it('a credential that claims an impersonation is refused (401 CREDENTIAL_REFUSED)', async () => {
    await expect((await setup({ impersonatedBy: 'someone' })).read()).rejects.toMatchObject({
      code: 'CREDENTIAL_REFUSED',
      status: 401,
    });
  });
});
