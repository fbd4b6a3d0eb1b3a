import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { runAdminStorageConformance } from './conformance.js';
import { createSqlAdminStorage } from './sql.js';

const open = () => new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });

runAdminStorageConformance('sql (sqlite)', async () => {
  const db = open();
  return { storage: createSqlAdminStorage(db), teardown: () => db.destroy() };
});

describe('createSqlAdminStorage on SQLite', () => {
  it('creates its table under tablePrefix and refuses a malformed prefix', async () => {
    const db = open();
    await createSqlAdminStorage(db, { tablePrefix: 'ops' }).migrate();
    const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
    expect(tables.map((x) => x.name).sort()).toStrictEqual(['ops_bans', 'ops_migrations', 'ops_migrations_lock']);
    expect(() => createSqlAdminStorage(db, { tablePrefix: 'x; drop table users' })).toThrow(TypeError);
    await db.destroy();
  });
});
