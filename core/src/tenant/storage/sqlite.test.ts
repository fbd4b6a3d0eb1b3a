import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { runTenantStorageConformance } from './conformance.js';
import { createSqlTenantStorage } from './sql.js';

const open = () => new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });

runTenantStorageConformance('sql (sqlite, dialect detected)', async () => {
  const db = open();
  return { storage: createSqlTenantStorage(db), teardown: () => db.destroy() };
});
runTenantStorageConformance('sql (sqlite, custom tableName)', async () => {
  const db = open();
  return {
    storage: createSqlTenantStorage(db, { tableName: 'orgs', dialect: 'sqlite' }),
    teardown: () => db.destroy(),
  };
});

describe('createSqlTenantStorage on SQLite', () => {
  it('creates its tables under tableName', async () => {
    const db = open();
    await createSqlTenantStorage(db, { tableName: 'orgs' }).migrate();
    const tables = (await db.introspection.getTables({ withInternalKyselyTables: true })).map((x) => x.name).sort();
    expect(tables).toStrictEqual(['orgs', 'orgs_members', 'orgs_migrations', 'orgs_migrations_lock']);
    await db.destroy();
  });

  it('rejects a malformed tableName and an unknown dialect at creation', async () => {
    const db = open();
    expect(() => createSqlTenantStorage(db, { tableName: 'tenants; drop table x' })).toThrow(TypeError);
    expect(() => createSqlTenantStorage(db, { dialect: 'oracle' as never })).toThrow(/Unknown SQL dialect/);
    await db.destroy();
  });
});
