/**
 * The table of the SQL API key storage, as Kysely migrations created by code.
 * @module
 * @internal
 */
import type { Kysely, Migration } from 'kysely';
import { createTable, type DialectTraits } from '../../../storage/sql/dialect.js';

/** The names of the storage's tables for one `tablePrefix`. */
export interface ApiKeyTables {
  keys: string;
  migrations: string;
  migrationLock: string;
}

/**
 * Table names derived from `tablePrefix`: `<name>`, `<name>_migrations`,
 * `<name>_migrations_lock`.
 */
export function apiKeyTables(tablePrefix = 'api_keys'): ApiKeyTables {
  return {
    keys: tablePrefix,
    migrations: `${tablePrefix}_migrations`,
    migrationLock: `${tablePrefix}_migrations_lock`,
  };
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
 * 0003: a user's keys are read in `(created_at, id)` order straight from the index `(user_id, created_at, id)`,
 * which replaces the `user_id` index (the list sorted the user's keys after finding them). Idempotent.
 */
function userOrder(t: ApiKeyTables, traits: DialectTraits): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex(`${t.keys}_user_created_idx`)
        .ifNotExists()
        .on(t.keys)
        .columns(['user_id', 'created_at', 'id'])
        .execute();
      const drop = db.schema.dropIndex(`${t.keys}_user_id_idx`).ifExists();
      // MySQL names the table of the index to drop.
      await (traits.name === 'mysql' ? drop.on(t.keys) : drop).execute();
    },
  };
}

/** The storage's migrations, in order (run by `pluginSql(...).migrate`, bookkeeping in `<prefix>_migrations`). */
export function apiKeyMigrations(t: ApiKeyTables, traits: DialectTraits): Record<string, Migration> {
  return {
    '0001_api_keys': initial(t, traits),
    '0002_api_key_roles': roles(t),
    '0003_api_key_user_order': userOrder(t, traits),
  };
}
