import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { runPhoneNumberStorageConformance } from './conformance.js';
import { createSqlPhoneNumberStorage } from './sql.js';

const open = () => new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });

runPhoneNumberStorageConformance('sql (sqlite)', async () => {
  const db = open();
  return { storage: createSqlPhoneNumberStorage(db), teardown: () => db.destroy() };
});

describe('createSqlPhoneNumberStorage on SQLite', () => {
  it('creates its table under tablePrefix', async () => {
    const db = open();
    await createSqlPhoneNumberStorage(db, { tablePrefix: 'phones' }).migrate();
    const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
    expect(tables.map((x) => x.name).sort()).toStrictEqual(['phones', 'phones_migrations', 'phones_migrations_lock']);
    expect(tables.find((x) => x.name === 'phones')!.columns.map((c) => c.name)).toStrictEqual([
      'user_id',
      'phone_number',
      'verified',
      'updated_at',
    ]);
    await db.destroy();
  });

  it('rejects a malformed tablePrefix and an unknown dialect at creation', async () => {
    const db = open();
    expect(() => createSqlPhoneNumberStorage(db, { tablePrefix: 'x; drop table users' })).toThrow(TypeError);
    expect(() => createSqlPhoneNumberStorage(db, { dialect: 'oracle' as never })).toThrow(/Unknown SQL dialect/);
    await db.destroy();
  });
});
