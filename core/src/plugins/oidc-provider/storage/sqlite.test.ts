import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { runOidcProviderStorageConformance } from './conformance.test-helpers.js';
import { createSqlOidcProviderStorage } from './sql.js';

const open = () => new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });

runOidcProviderStorageConformance('sql (sqlite)', async () => {
  const db = open();
  return { storage: createSqlOidcProviderStorage(db), teardown: () => db.destroy() };
});

describe('createSqlOidcProviderStorage on SQLite', () => {
  it('creates its tables under tablePrefix', async () => {
    const db = open();
    await createSqlOidcProviderStorage(db, { tablePrefix: 'op' }).migrate();
    const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
    expect(tables.map((x) => x.name).sort()).toStrictEqual([
      'op_clients',
      'op_codes',
      'op_consents',
      'op_grants',
      'op_migrations',
      'op_migrations_lock',
      'op_refresh_tokens',
    ]);
    await db.destroy();
  });

  it('rejects a malformed tablePrefix at creation', () => {
    const db = open();
    expect(() => createSqlOidcProviderStorage(db, { tablePrefix: 'x; drop table users' })).toThrow(TypeError);
  });
});
