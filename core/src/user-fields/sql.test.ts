/**
 * Custom user fields on real databases: `generateMigrationSql` prints their columns (applied by hand, a later
 * `migrate()` has nothing left to add), and `migrate()` adds a column to a table that has rows, on SQLite,
 * PostgreSQL and MariaDB. The storage conformance suite (`storage/conformance/user-fields.ts`) checks the rest on
 * every adapter.
 */
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { mysqlDatabases } from '../../../test-support/mysql-databases.js';
import { postgresSchemas } from '../../../test-support/pg-schemas.js';
import { generateMigrationSql } from '../storage/sql/generate.js';
import { createMysqlAdapter } from '../storage/sql/mysql.js';
import { createSqlStore } from '../storage/sql/store.js';
import type { SqlDialectName } from '../storage/sql/dialect.js';
import type { AdapterUser, StorageAdapter } from '../storage/types.js';
import { resolveUserFields } from './definitions.js';
import type { UserFieldsConfig } from './types.js';

const pg = await postgresSchemas('user_fields_test');
// Under CI=true these throw when the server is down, failing the file.
const my = await mysqlDatabases('user_fields_test');
afterAll(async () => {
  await pg.dropAll();
  await my.dropAll();
});

const additionalFields = {
  plan: { type: 'string', defaultValue: 'free', input: false },
  seats: { type: 'number', defaultValue: 3 },
  vip: { type: 'boolean', defaultValue: true },
  trialEndsAt: { type: 'date' },
  tags: { type: 'string[]' },
  handle: { type: 'string', unique: true },
} as const satisfies UserFieldsConfig;
const FIELDS = resolveUserFields(additionalFields);

/** Runs a script of `generateMigrationSql` statement by statement. */
async function runScript(db: Kysely<any>, script: string): Promise<void> {
  for (const statement of script.split(/;\n/).map((s) => s.replace(/^--.*$/gm, '').trim()))
    if (statement) await sql.raw(statement).execute(db);
}

/** The names of the users table's columns. */
async function columnsOf(db: Kysely<any>, dialect: SqlDialectName, table = 'auth_users'): Promise<string[]> {
  const query =
    dialect === 'sqlite'
      ? sql<{ name: string }>`select name from pragma_table_info(${table})`
      : sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_schema = ${dialect === 'mysql' ? sql`database()` : sql`current_schema()`} and table_name = ${table}`;
  return (await query.execute(db)).rows.map((r) => String(r.name)).sort();
}

const sqliteDb = () => new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
const storeOn = (db: Kysely<any>, dialect: SqlDialectName): StorageAdapter =>
  createSqlStore({ dialect, open: async () => ({ db, close: async () => {} }) });

/** The checks shared by every dialect, on a database `open` gives (the adapter and a Kysely on the same tables). */
function dialectTests(
  dialect: SqlDialectName,
  open: () => Promise<{ db: Kysely<any>; adapter: StorageAdapter; done(): Promise<void> }>,
) {
  it(`${dialect}: migrate() adds the columns to a users table that has rows, once; rows read the static defaults`, async () => {
    const { db, adapter, done } = await open();
    try {
      await adapter.migrate();
      const before = await adapter.createUser({ email: 'before@example.com' });
      const columns = await columnsOf(db, dialect);
      adapter.configureUserFields!(FIELDS);
      await adapter.migrate();
      await adapter.migrate();
      const added = (await columnsOf(db, dialect)).filter((c) => !columns.includes(c));
      expect(added.sort()).toStrictEqual(['handle', 'plan', 'seats', 'tags', 'trial_ends_at', 'vip']);
      expect(await adapter.getUser(before.id)).toMatchObject({ plan: 'free', seats: 3, vip: true, tags: null });
      const user = await adapter.createUser({
        email: 'after@example.com',
        tags: ['x'],
        handle: 'h',
      } as Partial<AdapterUser>);
      expect(await adapter.getUser(user.id)).toStrictEqual(user);
    } finally {
      await done();
    }
  });

  it(`${dialect}: the SQL of generateMigrationSql has the columns, and migrate() then adds nothing`, async () => {
    const { db, adapter, done } = await open();
    try {
      const script = await generateMigrationSql({ dialect, user: { additionalFields } });
      expect(script).toContain('-- user.additionalFields');
      await runScript(db, script);
      const columns = await columnsOf(db, dialect);
      expect(columns).toEqual(expect.arrayContaining(['plan', 'seats', 'vip', 'trial_ends_at', 'tags', 'handle']));
      adapter.configureUserFields!(FIELDS);
      await adapter.migrate();
      expect(await columnsOf(db, dialect)).toStrictEqual(columns);
      const user = await adapter.createUser({ email: 'gen@example.com', handle: 'gen' } as Partial<AdapterUser>);
      expect(await adapter.getUser(user.id)).toMatchObject({ plan: 'free', handle: 'gen' });
      await expect(adapter.createUser({ handle: 'gen' } as Partial<AdapterUser>)).rejects.toMatchObject({
        field: 'handle',
      });
    } finally {
      await done();
    }
  });
}

describe('custom user fields in SQL', () => {
  dialectTests('sqlite', async () => {
    const db = sqliteDb();
    return { db, adapter: storeOn(db, 'sqlite'), done: () => db.destroy() };
  });

  describe.skipIf(!pg.available)('postgres', () => {
    dialectTests('postgres', async () => {
      const db = await pg.isolated();
      return { db, adapter: storeOn(db, 'postgres'), done: () => db.destroy() };
    });
  });

  describe.skipIf(!my.available)('mysql', () => {
    dialectTests('mysql', async () => {
      const { pool, db } = await my.isolated();
      return { db, adapter: createMysqlAdapter({ pool }), done: async () => {} };
    });
  });

  it('generateMigrationSql renders each dialect’s column types and refuses malformed fields', async () => {
    const mysql = await generateMigrationSql({ dialect: 'mysql', user: { additionalFields } });
    expect(mysql).toContain('alter table `auth_users` add column `handle` varchar(255);');
    expect(mysql).toContain('create unique index `auth_users_handle_key` on `auth_users` (`handle`);');
    const postgres = await generateMigrationSql({ dialect: 'postgres', user: { additionalFields } });
    expect(postgres).toContain(`alter table "auth_users" add column "plan" text default 'free';`);
    expect(postgres).toContain('alter table "auth_users" add column "vip" boolean default true;');
    expect(postgres).toContain('alter table "auth_users" add column "trial_ends_at" bigint;');
    const sqlite = await generateMigrationSql({ dialect: 'sqlite', user: { additionalFields } });
    expect(sqlite).toContain('alter table "auth_users" add column "vip" integer default 1;');
    expect(sqlite).toContain('alter table "auth_users" add column "seats" double precision default 3;');
    await expect(
      generateMigrationSql({ dialect: 'sqlite', user: { additionalFields: { email: { type: 'string' } } } }),
    ).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
    expect(await generateMigrationSql({ dialect: 'sqlite' })).not.toContain('additionalFields');
  });
});
