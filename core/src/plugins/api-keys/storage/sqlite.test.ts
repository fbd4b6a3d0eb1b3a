import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { runApiKeyStorageConformance } from './conformance.js';
import { createSqlApiKeyStorage } from './sql.js';

const open = () => new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });

runApiKeyStorageConformance('sql (sqlite, dialect detected)', async () => {
  const db = open();
  return { storage: createSqlApiKeyStorage(db), teardown: () => db.destroy() };
});
runApiKeyStorageConformance('sql (sqlite, custom tableName)', async () => {
  const db = open();
  return {
    storage: createSqlApiKeyStorage(db, { tableName: 'service_keys', dialect: 'sqlite' }),
    teardown: () => db.destroy(),
  };
});

describe('createSqlApiKeyStorage on SQLite', () => {
  it('creates its tables under tableName and stores no secret column', async () => {
    const db = open();
    await createSqlApiKeyStorage(db, { tableName: 'keys' }).migrate();
    const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
    expect(tables.map((x) => x.name).sort()).toStrictEqual(['keys', 'keys_migrations', 'keys_migrations_lock']);
    expect(tables.find((x) => x.name === 'keys')!.columns.map((c) => c.name)).not.toContain('secret');
    await db.destroy();
  });

  it('rejects a malformed tableName and an unknown dialect at creation', () => {
    const db = open();
    expect(() => createSqlApiKeyStorage(db, { tableName: 'keys; drop table users' })).toThrow(TypeError);
    expect(() => createSqlApiKeyStorage(db, { dialect: 'mysql' as never })).toThrow(/Unknown SQL dialect/);
    void db.destroy();
  });
});
