/**
 * Plugins given no `storage` keep their data in the auth adapter's own database: `auth.migrate()` creates their
 * tables there (SQLite, PostgreSQL), and each plugin's route works end to end. On the memory adapter they keep it in
 * memory; on an adapter that is neither, createAuth refuses to start.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Kysely, sql } from 'kysely';
import { postgresSchemas } from '../../../test-support/pg-schemas.js';
import { AuthConfigError } from '../errors.js';
import { passwordAccounts } from '../password-accounts.js';
import { createMemoryAdapter } from '../storage/memory.js';
import { createSqliteAdapter } from '../storage/sql/sqlite.js';
import type { StorageAdapter } from '../storage/types.js';
import { makeFixture, ORIGIN, PASSWORD } from '../testing/fixtures.js';
import { admin } from './admin/index.js';
import { apiKeys, type ApiKeysExtension } from './api-keys/index.js';
import { auditLog } from './audit-log/index.js';
import { jwt } from './jwt/index.js';
import { organizations } from './organizations/index.js';
import { twoFactor, type TwoFactorExtension } from './two-factor/index.js';
import { emailOTP } from './email-otp/index.js';
import { postgresAdapterIn } from '../storage/sql/sql-test-support.js';

const every = () => [
  twoFactor(),
  apiKeys(),
  jwt({ audience: 'https://api.example.com' }),
  admin(),
  auditLog(),
  organizations({ sendInvitation: () => {} }),
  emailOTP({ sendVerificationOTP: () => {} }),
];

/** Signs in an admin with a verified email and uses one route of each plugin; answers the statuses. */
async function useEveryPlugin(adapter: StorageAdapter) {
  const f = await makeFixture('database', { adapter, baseURL: ORIGIN, plugins: every() });
  await f.auth.migrate();
  await f.adapter.updateUser(f.userId, { role: 'admin', emailVerified: new Date() });
  const other = await passwordAccounts(f.adapter).register({ email: 'bob@example.com', password: PASSWORD });
  const c = f.client();
  expect((await c.signIn()).status).toBeLessThan(400);
  const statuses = {
    twoFactor: (await c.postJson('/auth/two-factor/enable', { password: PASSWORD })).status,
    apiKeys: (await c.postJson('/auth/api-keys', { name: 'ci' })).status,
    jwt: (await c.request('/auth/token')).status,
    admin: (await c.postJson('/auth/admin/users/ban', { userId: other.id, reason: 'spam' })).status,
    auditLog: (await c.request('/auth/admin/audit', { headers: { accept: 'application/json' } })).status,
    organizations: (await c.postJson('/auth/org/create', { name: 'Acme', slug: 'acme' })).status,
    emailOTP: (await c.postJson('/auth/email-otp/send', { email: 'carol@example.com', type: 'sign-in' })).status,
  };
  return { f, statuses };
}

/** Rows of each plugin's table, read through the adapter's own connection. */
async function countRows(db: Kysely<any>) {
  const tables = [
    'two_factor',
    'api_keys',
    'auth_jwks',
    'admin_bans',
    'audit_log',
    'tenants',
    'tenants_members',
    'otp_codes',
  ];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
    counts[table] = Number(rows[0]!.n);
  }
  return counts;
}

const ok = { twoFactor: 200, apiKeys: 201, jwt: 200, admin: 200, auditLog: 200, organizations: 200, emailOTP: 200 };

function inTheAppDatabase(name: string, open: () => Promise<StorageAdapter>) {
  it(`${name}: auth.migrate() creates every plugin's tables in the adapter's database and the routes use them`, async () => {
    const adapter = await open();
    try {
      const { statuses } = await useEveryPlugin(adapter);
      expect(statuses).toEqual(ok);
      const counts = await countRows(adapter.kysely!);
      expect(counts).toMatchObject({
        two_factor: 1,
        api_keys: 1,
        auth_jwks: 1,
        admin_bans: 1,
        tenants: 1,
        otp_codes: 1,
      });
      expect(counts.tenants_members).toBe(1);
      expect(counts.audit_log).toBeGreaterThan(0);
    } finally {
      await adapter.close?.();
    }
  });
}

describe('plugins without `storage` on SQLite', () => {
  inTheAppDatabase('createSqliteAdapter', async () => createSqliteAdapter({ filename: ':memory:' }));
});

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pg = await postgresSchemas('plugin_defaults');

describe.skipIf(!pg.available)('plugins without `storage` on PostgreSQL', () => {
  afterAll(() => pg.dropAll());
  inTheAppDatabase('createPostgresAdapter', async () => {
    return postgresAdapterIn(pg);
  });
});

describe('plugins without `storage` on other adapters', () => {
  it('the memory adapter keeps every plugin in memory', async () => {
    const { f, statuses } = await useEveryPlugin(createMemoryAdapter());
    expect(statuses).toEqual(ok);
    const ext = f.auth.extensions as { apiKeys: ApiKeysExtension; twoFactor: TwoFactorExtension };
    expect(await ext.apiKeys.storage.listByUser(f.userId)).toHaveLength(1);
    expect(await ext.twoFactor.storage.get(f.userId)).toMatchObject({ enabled: false });
  });

  it('an adapter that is neither SQL nor memory is refused at createAuth', async () => {
    const memory = createMemoryAdapter();
    const foreign: StorageAdapter = { ...memory, kind: undefined };
    const refused = await makeFixture('database', { adapter: foreign, plugins: [apiKeys()] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AuthConfigError);
    expect((refused as Error).message).toMatch(/apiKeys\(\) needs `storage`/);
  });
});
