import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresSchemas } from '../../../../test-support/pg-schemas.js';
import { queryPlan } from '../../storage/sql/query-plan-test-support.js';
import { runTenantStorageConformance } from './conformance.js';
import { createSqlTenantStorage } from './sql.js';

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pgSchemas = await postgresSchemas('tenant_test');

describe.skipIf(!pgSchemas.available)('createSqlTenantStorage on PostgreSQL', () => {
  afterAll(() => pgSchemas.dropAll());
  /** A Kysely bound to a new, empty schema (dropped after the file). */
  const isolated = () => pgSchemas.isolated();

  runTenantStorageConformance('sql (postgres, dialect detected)', async () => {
    const db = await isolated();
    return { storage: createSqlTenantStorage(db), teardown: () => db.destroy() };
  });

  it('stores times as bigint, and two schemas with the same table names stay apart', async () => {
    const first = await isolated();
    const second = await isolated();
    const a = createSqlTenantStorage(first, { dialect: 'postgres' });
    const b = createSqlTenantStorage(second);
    await a.migrate();
    await b.migrate();
    await a.create({ slug: 'acme', name: 'Acme' });
    expect(await b.get('acme')).toBeNull();
    const { rows } = await sql<{
      data_type: string;
    }>`select data_type from information_schema.columns where table_schema = current_schema() and table_name = 'tenants' and column_name = 'created_at'`.execute(
      first,
    );
    expect(rows).toStrictEqual([{ data_type: 'bigint' }]);
    await first.destroy();
    await second.destroy();
  });

  it('reads memberships from the index alone: a members page, a user’s memberships, one membership', async () => {
    const db = await isolated();
    const storage = createSqlTenantStorage(db);
    await storage.migrate();
    await sql`insert into tenants (id, slug, name, created_at, updated_at)
      select 't' || i, 'tenant-' || i, 'Tenant', 0, 0 from generate_series(1, 50) as n(i)`.execute(db);
    // The members of a tenant spread over the whole table, as they are once many tenants have grown.
    await sql`insert into tenants_members (tenant_id, user_id, role, created_at)
      select 't' || (1 + i % 50), 'u' || i, 'member', 0 from generate_series(1, 20000) as n(i)`.execute(db);
    await sql`vacuum analyze tenants_members`.execute(db);
    const statements = [
      {
        sql: 'select * from tenants_members where tenant_id = $1 and user_id > $2 order by user_id limit $3',
        parameters: ['t7', 'u5', 50],
      },
      { sql: 'select * from tenants_members where user_id = $1', parameters: ['u1006'] },
      { sql: 'select * from tenants_members where tenant_id = $1 and user_id = $2', parameters: ['t7', 'u1006'] },
    ];
    for (const statement of statements) {
      const plan = await queryPlan(db, 'postgres', statement);
      expect(plan.join('\n'), statement.sql).toMatch(/Index Only Scan using tenants_members_(pkey|user_covering_idx)/);
    }
    const members = Array.from({ length: 400 }, (_, k) => `u${6 + 50 * k}`).sort();
    expect((await storage.listMembers('t7', { limit: 3 })).members.map((m) => m.userId)).toStrictEqual(
      members.slice(0, 3),
    );
    expect((await storage.listMemberships('u1006')).map((m) => m.tenantId)).toStrictEqual(['t7']);
    await db.destroy();
  });
});
