import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { runAnonymousStorageConformance } from './conformance.js';
import { createSqlAnonymousStorage } from './sql.js';

const open = () => new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });

runAnonymousStorageConformance('sql (sqlite)', async () => {
  const db = open();
  return { storage: createSqlAnonymousStorage(db), teardown: () => db.destroy() };
});

describe('createSqlAnonymousStorage on SQLite', () => {
  it('creates its table under tablePrefix', async () => {
    const db = open();
    await createSqlAnonymousStorage(db, { tablePrefix: 'guests' }).migrate();
    const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
    expect(tables.map((x) => x.name).sort()).toStrictEqual([
      'guests_migrations',
      'guests_migrations_lock',
      'guests_users',
    ]);
    await db.destroy();
  });

  it('rejects a malformed tablePrefix and an unknown dialect at creation', async () => {
    const db = open();
    expect(() => createSqlAnonymousStorage(db, { tablePrefix: 'x; drop table users' })).toThrow(TypeError);
    expect(() => createSqlAnonymousStorage(db, { dialect: 'oracle' as never })).toThrow(/Unknown SQL dialect/);
    await db.destroy();
  });
});
