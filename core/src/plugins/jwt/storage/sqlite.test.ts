import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { runJwksStorageConformance } from './conformance.js';
import { createSqlJwksStorage } from './sql.js';

const open = () => new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });

runJwksStorageConformance('sql (sqlite, dialect detected)', async () => {
  const db = open();
  return { storage: createSqlJwksStorage(db), teardown: () => db.destroy() };
});
runJwksStorageConformance('sql (sqlite, custom tablePrefix)', async () => {
  const db = open();
  return {
    storage: createSqlJwksStorage(db, { tablePrefix: 'signing_keys', dialect: 'sqlite' }),
    teardown: () => db.destroy(),
  };
});

describe('createSqlJwksStorage on SQLite', () => {
  it('creates its tables under tableName (the deprecated alias of tablePrefix)', async () => {
    const db = open();
    await createSqlJwksStorage(db, { tableName: 'signing_keys' }).migrate();
    const tables = (await db.introspection.getTables({ withInternalKyselyTables: true })).map((x) => x.name).sort();
    expect(tables).toStrictEqual(['signing_keys', 'signing_keys_migrations', 'signing_keys_migrations_lock']);
    await db.destroy();
  });

  it('rejects a malformed tablePrefix and an unknown dialect at creation', async () => {
    const db = open();
    expect(() => createSqlJwksStorage(db, { tablePrefix: 'keys; drop table x' })).toThrow(TypeError);
    expect(() => createSqlJwksStorage(db, { dialect: 'oracle' as never })).toThrow(/Unknown SQL dialect/);
    await db.destroy();
  });
});
