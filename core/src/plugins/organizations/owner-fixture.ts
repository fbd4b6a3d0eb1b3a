/**
 * Test fixture of the last-owner tests: an auth with `organizations()` and `admin()` over one kind of storage
 * (memory; SQLite; PostgreSQL for the organizations with memory users), signed-in people and organizations.
 * @module
 * @internal
 */
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { expect } from 'vitest';
import type { CreateAuthOptions } from '../../auth.js';
import type { PostgresSchemas } from '../../../../test-support/pg-schemas.js';
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

/** Where the users and the organizations live, and how to close it. */
export interface OwnerStores {
  adapter: StorageAdapter;
  tenants: TenantStorage;
  invitations: InvitationStorage;
  close(): Promise<void>;
}

/** The storage kinds; `postgres` needs `pg` (see `postgresSchemas`). */
export function storeKinds(pg?: PostgresSchemas): Record<string, () => Promise<OwnerStores>> {
  const sqlStores = (adapter: StorageAdapter, db: Kysely<any>): OwnerStores => ({
    adapter,
    tenants: createSqlTenantStorage(db),
    invitations: createSqlInvitationStorage(db),
    close: () => db.destroy(),
  });
  return {
    memory: async () => ({
      adapter: createMemoryAdapter(),
      tenants: createMemoryTenantStorage(),
      invitations: createMemoryInvitationStorage(),
      close: async () => {},
    }),
    sqlite: async () =>
      sqlStores(
        createSqliteAdapter({ filename: ':memory:' }),
        new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) }),
      ),
    ...(pg?.available ? { postgres: async () => sqlStores(createMemoryAdapter(), await pg.isolated()) } : {}),
  };
}

/** `[status, error code]` of a JSON answer. */
export const errorOf = async (res: Response) => [
  res.status,
  ((await res.json()) as { error?: { code: string } }).error?.code,
];

/** An auth over `stores` (and `overrides` of its options) with helpers; `stores.close` is the caller's to run. */
export async function ownerFixture(stores: OwnerStores, overrides: Partial<CreateAuthOptions> = {}) {
  const f = await makeFixture('database', {
    ...overrides,
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
  const organization = async (owner: TestClient, name: string, others: Array<{ id: string }> = [], role = 'member') => {
    const res = await owner.postJson('/auth/org/create', { name });
    const id = ((await res.json()) as { organization: { id: string } }).organization.id;
    for (const other of others) await stores.tenants.addMember({ tenantId: id, userId: other.id, role });
    return id;
  };
  const roleOf = async (orgId: string, userId: string) => (await stores.tenants.getMember(orgId, userId))?.role;
  const owners = async (orgId: string) =>
    (await stores.tenants.listMembers(orgId, { limit: 100 })).members
      .filter((m) => m.role === 'owner')
      .map((m) => m.userId);
  const deleteOwn = (p: { c: TestClient; password: string }) =>
    p.c.postJson('/auth/account/delete', { password: p.password });
  return { ...f, ...stores, person, organization, roleOf, owners, deleteOwn };
}
