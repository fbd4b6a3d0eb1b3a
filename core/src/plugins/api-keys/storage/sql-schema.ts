/**
 * The table of the SQL API key storage, as Kysely migrations created by code.
 * @module
 * @internal
 */
import type { Kysely, Migration } from 'kysely';
import { runMigrations } from '../../../storage/sql/migrator.js';
import { createTable, type DialectTraits, type SqlDialectName } from '../../../storage/sql/dialect.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,40}$/;

/** The names of the storage's tables for one `tableName`. */
export interface ApiKeyTables {
  keys: string;
  migrations: string;
  migrationLock: string;
}

/**
 * Table names derived from `tableName`: `<name>`, `<name>_migrations`,
 * `<name>_migrations_lock`.
 * @throws TypeError when `tableName` is not a plain SQL identifier.
 */
export function apiKeyTables(tableName = 'api_keys'): ApiKeyTables {
  if (typeof tableName !== 'string' || !IDENTIFIER.test(tableName)) {
    throw new TypeError(`tableName must match ${IDENTIFIER} (letters, digits, "_"); got ${JSON.stringify(tableName)}`);
  }
  return { keys: tableName, migrations: `${tableName}_migrations`, migrationLock: `${tableName}_migrations_lock` };
}

function initial(t: ApiKeyTables, traits: DialectTraits): Migration {
  const { int64, key } = traits;
  return {
    async up(db: Kysely<any>) {
      await createTable(db, t.keys, traits)
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('prefix', key, (c) => c.notNull().unique())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('user_id', key, (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('permissions', 'text')
        .addColumn('created_at', int64, (c) => c.notNull())
        .addColumn('expires_at', int64)
        .addColumn('revoked_at', int64)
        .execute();
      await db.schema.createIndex(`${t.keys}_user_id_idx`).on(t.keys).column('user_id').execute();
    },
  };
}

/** 0002: the `roles` column (JSON array text, null: no explicit role grant); rows from before read as null. */
function roles(t: ApiKeyTables): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable(t.keys).addColumn('roles', 'text').execute();
    },
  };
}

/**
 * Brings the table up to date; idempotent (the migration bookkeeping is
 * pinned to `current_schema()` on PostgreSQL).
 * @throws the first migration error.
 */
export async function migrateApiKeyTables(
  db: Kysely<any>,
  t: ApiKeyTables,
  dialect: SqlDialectName,
  traits: DialectTraits,
): Promise<void> {
  await runMigrations(db, {
    migrations: { '0001_api_keys': initial(t, traits), '0002_api_key_roles': roles(t) },
    table: t.migrations,
    lockTable: t.migrationLock,
    dialect,
  });
}
