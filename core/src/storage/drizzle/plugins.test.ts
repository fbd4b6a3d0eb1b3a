/**
 * The plugins' SQL storages on the Drizzle adapter's database, through `adapter.kysely` (the same better-sqlite3
 * `Database` or node-postgres `Pool` as the Drizzle database): each passes its conformance suite there.
 */
import Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import { drizzle as sqliteDrizzle } from 'drizzle-orm/better-sqlite3';
import { drizzle as pgDrizzle } from 'drizzle-orm/node-postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { runAdminStorageConformance } from '../../plugins/admin/storage/conformance.js';
import { createSqlAdminStorage } from '../../plugins/admin/storage/sql.js';
import { runApiKeyStorageConformance } from '../../plugins/api-keys/storage/conformance.js';
import { createSqlApiKeyStorage } from '../../plugins/api-keys/storage/sql.js';
import { runAuditStorageConformance } from '../../plugins/audit-log/storage/conformance.js';
import { createSqlAuditStorage } from '../../plugins/audit-log/storage/sql.js';
import { runInvitationStorageConformance } from '../../plugins/organizations/storage/conformance.js';
import { createSqlInvitationStorage } from '../../plugins/organizations/storage/sql.js';
import { runTwoFactorStorageConformance } from '../../plugins/two-factor/storage/conformance.js';
import { createSqlTwoFactorStorage } from '../../plugins/two-factor/storage/sql.js';
import { createDrizzleAdapter, type DrizzleStorageAdapter } from './adapter.js';
import { pgPools } from './drizzle-test-support.js';

/** A migrated Drizzle adapter on a fresh database, and how to release it. */
type Fresh = () => Promise<{ adapter: DrizzleStorageAdapter; teardown: () => Promise<void> }>;

const onSqlite: Fresh = async () => {
  const client = new Database(':memory:');
  const adapter = createDrizzleAdapter(sqliteDrizzle(client));
  await adapter.migrate();
  return { adapter, teardown: async () => void client.close() };
};

/** Every plugin storage's conformance suite, each storage on the adapter's `kysely`. */
function pluginSuites(name: string, fresh: Fresh) {
  const on =
    <S>(make: (adapter: DrizzleStorageAdapter) => S) =>
    async () => {
      const { adapter, teardown } = await fresh();
      return { storage: make(adapter), teardown };
    };
  runAdminStorageConformance(
    name,
    on((a) => createSqlAdminStorage(a.kysely)),
  );
  runAuditStorageConformance(
    name,
    on((a) => createSqlAuditStorage(a.kysely)),
  );
  runInvitationStorageConformance(
    name,
    on((a) => createSqlInvitationStorage(a.kysely)),
  );
  runTwoFactorStorageConformance(
    name,
    on((a) => createSqlTwoFactorStorage(a.kysely)),
  );
  runApiKeyStorageConformance(
    name,
    on((a) => createSqlApiKeyStorage(a.kysely)),
  );
}

pluginSuites('drizzle (better-sqlite3)', onSqlite);

describe('plugin records beside the Drizzle adapter', () => {
  it('live in the same database: a Drizzle query joins an audit entry to its user', async () => {
    const client = new Database(':memory:');
    const db = sqliteDrizzle(client);
    const adapter = createDrizzleAdapter(db);
    await adapter.migrate();
    const audit = createSqlAuditStorage(adapter.kysely);
    await audit.migrate();
    const user = await adapter.createUser({ email: 'audited@example.com' });
    await audit.append({
      id: crypto.randomUUID(),
      type: 'onSignIn',
      at: new Date(1e12),
      userId: user.id,
      actorId: user.id,
      ip: null,
      userAgent: null,
      requestId: 'r1',
      data: {},
    });
    const rows = db.all<{ email: string }>(sql`select u.email from audit_log a join auth_users u on u.id = a.user_id`);
    expect(rows).toStrictEqual([{ email: 'audited@example.com' }]);
    client.close();
  });
});

const pg = await pgPools('drizzle_plugins_test');
describe.skipIf(!pg.available)('on node-postgres', () => {
  afterAll(() => pg.dropAll());
  pluginSuites('drizzle (node-postgres)', async () => {
    const pool = await pg.pool();
    const adapter = createDrizzleAdapter(pgDrizzle(pool));
    await adapter.migrate();
    return { adapter, teardown: () => pool.end() };
  });
});
