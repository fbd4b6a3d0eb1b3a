import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { runUsernameStorageConformance } from './conformance.js';
import { createSqlUsernameStorage } from './sql.js';

const open = () => new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });

runUsernameStorageConformance('sql (sqlite)', async () => {
  const db = open();
  return { storage: createSqlUsernameStorage(db), teardown: () => db.destroy() };
});

describe('createSqlUsernameStorage on SQLite', () => {
  it('creates its table under tablePrefix, keyed by the folded name', async () => {
    const db = open();
    await createSqlUsernameStorage(db, { tablePrefix: 'handles' }).migrate();
    const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
    expect(tables.map((x) => x.name).sort()).toStrictEqual([
      'handles_migrations',
      'handles_migrations_lock',
      'handles_names',
    ]);
    await db.destroy();
  });

  it('rejects a malformed tablePrefix and an unknown dialect at creation', async () => {
    const db = open();
    expect(() => createSqlUsernameStorage(db, { tablePrefix: 'x; drop table users' })).toThrow(TypeError);
    expect(() => createSqlUsernameStorage(db, { dialect: 'oracle' as never })).toThrow(/Unknown SQL dialect/);
    await db.destroy();
  });
});
