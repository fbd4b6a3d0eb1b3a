/**
 * The last owner of an organization cannot escape it by deleting their account, nor be removed by `admin()`: both
 * answer 409 `LAST_OWNER` and delete nothing, until ownership is transferred or the organization is deleted. Run on
 * the memory adapter and on SQLite (the auth adapter and the organizations' storage alike).
 */
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { passwordAccounts } from '../../password-accounts.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import { createSqliteAdapter } from '../../storage/sql/sqlite.js';
import type { StorageAdapter } from '../../storage/types.js';
import { createMemoryTenantStorage } from '../../tenant/storage/memory.js';
import { createSqlTenantStorage } from '../../tenant/storage/sql.js';
import type { TenantStorage } from '../../tenant/types.js';
import { makeFixture, type TestClient } from '../../testing/fixtures.js';
import { admin } from '../admin/plugin.js';
import { createMemoryAdminStorage } from '../admin/storage/memory.js';
import { organizations } from './plugin.js';
import { createMemoryInvitationStorage } from './storage/memory.js';
import { createSqlInvitationStorage } from './storage/sql.js';
import type { InvitationStorage } from './types.js';

interface Stores {
  adapter: StorageAdapter;
  tenants: TenantStorage;
  invitations: InvitationStorage;
  close(): Promise<void>;
}

const open: Record<string, () => Stores> = {
  memory: () => ({
    adapter: createMemoryAdapter(),
    tenants: createMemoryTenantStorage(),
    invitations: createMemoryInvitationStorage(),
    close: async () => {},
  }),
  sqlite: () => {
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    return {
      adapter: createSqliteAdapter({ filename: ':memory:' }),
      tenants: createSqlTenantStorage(db),
      invitations: createSqlInvitationStorage(db),
      close: () => db.destroy(),
    };
  },
};

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

const errorOf = async (res: Response) => [res.status, ((await res.json()) as { error?: { code: string } }).error?.code];

describe.each(Object.keys(open))('the last owner of an organization (%s storage)', (kind) => {
  async function setup() {
    const stores = open[kind]!();
    closing.push(stores.close);
    const f = await makeFixture('database', {
      adapter: stores.adapter,
      plugins: [
        organizations({ tenants: stores.tenants, invitations: stores.invitations, sendInvitation: () => {} }),
        admin({ storage: createMemoryAdminStorage() }),
      ],
    });
    await f.auth.migrate();
    const passwords = passwordAccounts(stores.adapter);
    /** A verified user, signed in in a fresh client. */
    const person = async (name: string, role?: string) => {
      const email = `${name}@org.test`;
      const password = `${name}-password-1`;
      const user = await passwords.register({ email, password });
      await stores.adapter.updateUser(user.id, { emailVerified: new Date(), ...(role ? { role } : {}) });
      const c = f.client();
      c.ip = '203.0.113.7';
      expect((await c.signIn(email, password)).status).toBe(200);
      return { id: user.id, c, password };
    };
    /** An organization created by `owner`, with `others` as members of `role`. */
    const organization = async (
      owner: TestClient,
      name: string,
      others: Array<{ id: string }> = [],
      role = 'member',
    ) => {
      const res = await owner.postJson('/auth/org/create', { name });
      const id = ((await res.json()) as { organization: { id: string } }).organization.id;
      for (const other of others) await stores.tenants.addMember({ tenantId: id, userId: other.id, role });
      return id;
    };
    const roleOf = async (orgId: string, userId: string) => (await stores.tenants.getMember(orgId, userId))?.role;
    const deleteOwn = (p: { c: TestClient; password: string }) =>
      p.c.postJson('/auth/account/delete', { password: p.password });
    return { ...f, ...stores, person, organization, roleOf, deleteOwn };
  }

  it('deleting the account as the only owner of any organization is 409 LAST_OWNER and deletes nothing', async () => {
    const f = await setup();
    const ada = await f.person('ada');
    const grace = await f.person('grace');
    // Co-owned first, owned alone second: one organization without another owner is enough to refuse.
    const shared = await f.organization(ada.c, 'Shared', [grace], 'owner');
    const alone = await f.organization(ada.c, 'Alone', [grace], 'admin');
    const refused = await f.deleteOwn(ada);
    expect(await errorOf(refused)).toEqual([409, 'LAST_OWNER']);
    expect(await f.adapter.getUser(ada.id)).not.toBeNull();
    expect(await f.roleOf(shared, ada.id)).toBe('owner');
    expect(await f.roleOf(alone, ada.id)).toBe('owner');
    expect((await ada.c.session())?.user.id).toBe(ada.id);
    // An organization of one (no other member at all) holds the owner too.
    const solo = await f.person('solo');
    await f.organization(solo.c, 'Solo');
    expect(await errorOf(await f.deleteOwn(solo))).toEqual([409, 'LAST_OWNER']);
    expect(await f.adapter.getUser(solo.id)).not.toBeNull();
  });

  it('once ownership is transferred, or the organization deleted, the account deletes', async () => {
    const f = await setup();
    const ada = await f.person('ada');
    const grace = await f.person('grace');
    const kept = await f.organization(ada.c, 'Kept', [grace]);
    const dropped = await f.organization(ada.c, 'Dropped');
    expect((await f.deleteOwn(ada)).status).toBe(409);
    expect((await ada.c.postJson('/auth/org/transfer', { organizationId: kept, userId: grace.id })).status).toBe(200);
    expect(await errorOf(await f.deleteOwn(ada))).toEqual([409, 'LAST_OWNER']);
    expect((await ada.c.postJson('/auth/org/delete', { organizationId: dropped })).status).toBe(200);
    const res = await f.deleteOwn(ada);
    expect(res.status).toBe(200);
    expect(await f.adapter.getUser(ada.id)).toBeNull();
    expect(await f.roleOf(kept, ada.id)).toBeUndefined();
    expect(await f.roleOf(kept, grace.id)).toBe('owner');
  });

  it('an owner beside another owner, and a member who owns nothing, delete their accounts', async () => {
    const f = await setup();
    const ada = await f.person('ada');
    const grace = await f.person('grace');
    const bob = await f.person('bob');
    const orgId = await f.organization(ada.c, 'Acme', [grace], 'owner');
    await f.tenants.addMember({ tenantId: orgId, userId: bob.id, role: 'admin' });
    expect((await f.deleteOwn(grace)).status).toBe(200);
    expect(await f.adapter.getUser(grace.id)).toBeNull();
    expect((await f.deleteOwn(bob)).status).toBe(200);
    expect(await f.roleOf(orgId, ada.id)).toBe('owner');
    expect((await f.tenants.listMembers(orgId)).map((m) => m.userId)).toEqual([ada.id]);
    // Now the only owner: refused.
    expect(await errorOf(await f.deleteOwn(ada))).toEqual([409, 'LAST_OWNER']);
  });

  it("admin()'s remove-user refuses the only owner the same way, and removes them once ownership moved", async () => {
    const f = await setup();
    const root = await f.person('root', 'admin');
    const ada = await f.person('ada');
    const grace = await f.person('grace');
    const orgId = await f.organization(ada.c, 'Acme', [grace], 'admin');
    const refused = await root.c.postJson('/auth/admin/users/remove', { userId: ada.id });
    expect(await errorOf(refused)).toEqual([409, 'LAST_OWNER']);
    expect(await f.adapter.getUser(ada.id)).not.toBeNull();
    expect(await f.roleOf(orgId, ada.id)).toBe('owner');
    expect((await ada.c.session())?.user.id).toBe(ada.id); // nothing ended either
    // The no-JS admin page shows the refusal with its status.
    const page = await root.c.postForm('/auth/admin/users/remove', { userId: ada.id });
    expect(page.status).toBe(409);
    expect(await f.adapter.getUser(ada.id)).not.toBeNull();

    expect((await ada.c.postJson('/auth/org/transfer', { organizationId: orgId, userId: grace.id })).status).toBe(200);
    expect((await root.c.postJson('/auth/admin/users/remove', { userId: ada.id })).status).toBe(200);
    expect(await f.adapter.getUser(ada.id)).toBeNull();
    expect(await f.roleOf(orgId, grace.id)).toBe('owner');
  });
});
