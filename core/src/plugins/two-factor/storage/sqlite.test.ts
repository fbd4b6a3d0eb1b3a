import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { runTwoFactorStorageConformance } from './conformance.js';
import { createSqlTwoFactorStorage } from './sql.js';

const open = () => new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });

runTwoFactorStorageConformance('sql (sqlite)', async () => {
  const db = open();
  return { storage: createSqlTwoFactorStorage(db), teardown: () => db.destroy() };
});

describe('createSqlTwoFactorStorage on SQLite', () => {
  it('creates its tables under tablePrefix, with no plain key or code column', async () => {
    const db = open();
    await createSqlTwoFactorStorage(db, { tablePrefix: 'mfa' }).migrate();
    const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
    expect(tables.map((x) => x.name).sort()).toStrictEqual([
      'mfa',
      'mfa_backup_codes',
      'mfa_challenges',
      'mfa_migrations',
      'mfa_migrations_lock',
      'mfa_trusted_devices',
    ]);
    expect(tables.find((x) => x.name === 'mfa_backup_codes')!.columns.map((c) => c.name)).toStrictEqual([
      'user_id',
      'code_hash',
    ]);
    await db.destroy();
  });

  it('rejects a malformed tablePrefix and an unknown dialect at creation', () => {
    const db = open();
    expect(() => createSqlTwoFactorStorage(db, { tablePrefix: 'x; drop table users' })).toThrow(TypeError);
    expect(() => createSqlTwoFactorStorage(db, { dialect: 'oracle' as never })).toThrow(/Unknown SQL dialect/);
    void db.destroy();
  });
});
