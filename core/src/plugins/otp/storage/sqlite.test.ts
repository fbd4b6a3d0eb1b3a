import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { runOtpStorageConformance } from './conformance.test-helpers.js';
import { createSqlOtpStorage } from './sql.js';

const open = () => new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });

runOtpStorageConformance('sql (sqlite)', async () => {
  const db = open();
  return { storage: createSqlOtpStorage(db), teardown: () => db.destroy() };
});

describe('createSqlOtpStorage on SQLite', () => {
  it('creates its table under tablePrefix, with no code or address column', async () => {
    const db = open();
    await createSqlOtpStorage(db, { tablePrefix: 'codes' }).migrate();
    const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
    expect(tables.map((x) => x.name).sort()).toStrictEqual([
      'codes_codes',
      'codes_migrations',
      'codes_migrations_lock',
    ]);
    expect(tables.find((x) => x.name === 'codes_codes')!.columns.map((c) => c.name)).toStrictEqual([
      'id',
      'code_hash',
      'attempts',
      'expires_at',
    ]);
    await db.destroy();
  });

  it('rejects a malformed tablePrefix and an unknown dialect at creation', async () => {
    const db = open();
    expect(() => createSqlOtpStorage(db, { tablePrefix: 'x; drop table users' })).toThrow(TypeError);
    expect(() => createSqlOtpStorage(db, { dialect: 'oracle' as never })).toThrow(/Unknown SQL dialect/);
    await db.destroy();
  });
});
