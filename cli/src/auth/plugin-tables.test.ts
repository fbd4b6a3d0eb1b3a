import Database from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { mysqlDatabases } from '../../../test-support/mysql-databases.js';
import { postgresSchemas } from '../../../test-support/pg-schemas.js';
import { run } from '../run.test-helpers.js';
import { PLUGIN_STORAGES, type SqlDialect } from './plugin-tables.js';

// Under CI=true these throw when the server is down, failing the file.
const pg = await postgresSchemas('cli_generate');
const mysql = await mysqlDatabases('cli_generate');
afterAll(async () => {
  await pg.dropAll();
  await mysql.dropAll();
});

/** One table each plugin's storage creates, and its migration bookkeeping table. */
const PLUGIN_TABLES: Record<string, [table: string, migrations: string]> = {
  'two-factor': ['two_factor_challenges', 'two_factor_migrations'],
  admin: ['admin_bans', 'admin_migrations'],
  organizations: ['org_invitations', 'org_migrations'],
  'audit-log': ['audit_log', 'audit_migrations'],
  'api-keys': ['api_keys', 'api_keys_migrations'],
  jwt: ['auth_jwks', 'auth_jwks_migrations'],
  anonymous: ['anonymous_users', 'anonymous_migrations'],
  username: ['username_names', 'username_migrations'],
  'phone-number': ['phone_numbers', 'phone_numbers_migrations'],
  'oidc-provider': ['oidc_refresh_tokens', 'oidc_migrations'],
  sso: ['sso_providers', 'sso_migrations'],
};

/** The script's statements, without its comments. */
function statements(script: string): string[] {
  return script
    .split(/;\n/)
    .map((chunk) => chunk.replace(/^--.*$/gm, '').trim())
    .filter(Boolean);
}

async function tables(db: Kysely<any>): Promise<string[]> {
  return (await db.introspection.getTables({ withInternalKyselyTables: true })).map((t) => t.name);
}

async function count(db: Kysely<any>, table: string): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Runs `auth generate` for `dialect` on the empty database `db`, then every plugin storage's real `migrate()`: the
 * tables must be there before it runs, and it must find every migration applied (no error, no new bookkeeping row).
 */
async function generatedSchemaIsComplete(dialect: SqlDialect, db: Kysely<any>): Promise<void> {
  const { code, stdout, stderr } = await run('auth', 'generate', '--dialect', dialect);
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  for (const statement of statements(stdout)) await sql.raw(statement).execute(db);
  const created = await tables(db);
  expect(created).toContain('auth_users');
  const applied: Record<string, number> = {};
  for (const [plugin, [table, migrations]] of Object.entries(PLUGIN_TABLES)) {
    expect(created, plugin).toContain(table);
    applied[plugin] = await count(db, migrations);
    expect(applied[plugin], plugin).toBeGreaterThan(0);
  }
  for (const [plugin, { load }] of Object.entries(PLUGIN_STORAGES)) {
    await (await load())(db, { dialect }).migrate();
    expect(await count(db, PLUGIN_TABLES[plugin]![1]), plugin).toBe(applied[plugin]);
  }
}

describe('framework auth generate: the plugins tables', () => {
  it('names every plugin with a SQL storage', () => {
    expect(Object.keys(PLUGIN_STORAGES).sort()).toEqual(Object.keys(PLUGIN_TABLES).sort());
  });

  it('on SQLite, the script creates every plugin table and auth.migrate() then has nothing to do', async () => {
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    try {
      await generatedSchemaIsComplete('sqlite', db);
    } finally {
      await db.destroy();
    }
  }, 60_000);

  it.skipIf(!pg.available)(
    'on PostgreSQL, likewise',
    async () => {
      await generatedSchemaIsComplete('postgres', await pg.isolated());
    },
    60_000,
  );

  it.skipIf(!mysql.available)(
    'on MariaDB, likewise',
    async () => {
      await generatedSchemaIsComplete('mysql', (await mysql.isolated()).db);
    },
    60_000,
  );

  it('--plugins narrows the list; none leaves the adapter tables alone; an unknown name is a usage error', async () => {
    const some = await run('auth', 'generate', '--dialect', 'sqlite', '--plugins', 'jwt,admin');
    expect(some.code).toBe(0);
    expect(some.stdout).toContain('create table "auth_jwks"');
    expect(some.stdout).toContain('create table "admin_bans"');
    expect(some.stdout).not.toContain('two_factor');
    const none = await run('auth', 'generate', '--dialect', 'sqlite', '--plugins', 'none');
    expect(none.stdout).not.toContain('-- plugin');
    expect(none.stdout).toContain('create table "auth_users"');
    expect(await run('auth', 'generate', '--dialect', 'sqlite', '--plugins', 'toString')).toMatchObject({ code: 2 });
    expect(await run('auth', 'generate', '--dialect', 'sqlite', '--plugins', 'jwt,passwords')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'framework: unknown plugin "passwords" in --plugins (all, none, or some of two-factor, admin, organizations, audit-log, api-keys, jwt, anonymous, username, phone-number, oidc-provider, sso)\n',
    });
  }, 60_000);

  it('prints the same script on every run (the migrator timestamps are fixed)', async () => {
    const first = await run('auth', 'generate', '--dialect', 'postgres', '--plugins', 'audit-log');
    expect(first.stdout).toContain(
      `insert into "audit_migrations" ("name", "timestamp") values ('0002_filter_indexes', '1970-01-01T00:00:00.000Z');`,
    );
    expect(first.stdout).not.toMatch(/pg_advisory|migration_lock'/);
    expect((await run('auth', 'generate', '--dialect', 'postgres', '--plugins', 'audit-log')).stdout).toBe(
      first.stdout,
    );
  }, 60_000);
});
