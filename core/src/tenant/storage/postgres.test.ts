import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresSchemas } from '../../../../test-support/pg-schemas.js';
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
});
