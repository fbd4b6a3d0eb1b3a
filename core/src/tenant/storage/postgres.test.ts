import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_URL, serviceAvailable } from '../../../../test-support/services.js';
import { runTenantStorageConformance } from './conformance.js';
import { createSqlTenantStorage } from './sql.js';

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pgUp = await serviceAvailable('postgres');
const pg = pgUp ? (await import('pg')).default : undefined;

/** Kysely over the test database; with `schema`, its search_path is that schema only. */
const connect = (schema?: string) =>
  new Kysely<any>({
    dialect: new PostgresDialect({ pool: new pg!.Pool({ connectionString: DATABASE_URL, max: 2, ...(schema ? { options: `-c search_path=${schema}` } : {}) }) }),
  });

describe.skipIf(!pg)('createSqlTenantStorage on PostgreSQL', () => {
  const admin = pg ? connect() : undefined;
  const schemas: string[] = [];
  afterAll(async () => {
    for (const schema of schemas) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin!);
    await admin?.destroy();
  });

  /** A Kysely bound to a new, empty schema (dropped after the file). */
  async function isolated(): Promise<Kysely<any>> {
    const schema = `tenant_test_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    await sql`create schema ${sql.id(schema)}`.execute(admin!);
    return connect(schema);
  }

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
    const { rows } = await sql<{ data_type: string }>`select data_type from information_schema.columns where table_schema = current_schema() and table_name = 'tenants' and column_name = 'created_at'`.execute(first);
    expect(rows).toStrictEqual([{ data_type: 'bigint' }]);
    await first.destroy();
    await second.destroy();
  });
});
