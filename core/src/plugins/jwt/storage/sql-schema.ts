/**
 * The table of the SQL key storage, as Kysely migrations created by code.
 * @module
 * @internal
 */
import type { Kysely, Migration } from 'kysely';
import { createTable, type DialectTraits } from '../../../storage/sql/dialect.js';

/** The names of the storage's tables for one `tablePrefix`. */
export interface JwksTables {
  keys: string;
  migrations: string;
  migrationLock: string;
}

/**
 * Table names derived from `tablePrefix`: `<name>`, `<name>_migrations`,
 * `<name>_migrations_lock`.
 */
export function jwksTables(tablePrefix = 'auth_jwks'): JwksTables {
  return {
    keys: tablePrefix,
    migrations: `${tablePrefix}_migrations`,
    migrationLock: `${tablePrefix}_migrations_lock`,
  };
}

function initial(t: JwksTables, traits: DialectTraits): Migration {
  const { int64, key } = traits;
  return {
    async up(db: Kysely<any>) {
      await createTable(db, t.keys, traits)
        .addColumn('kid', key, (c) => c.primaryKey())
        .addColumn('alg', 'text', (c) => c.notNull())
        // Unique: of two instances rotating at once, exactly one insert wins.
        .addColumn('generation', 'integer', (c) => c.notNull().unique())
        .addColumn('public_jwk', 'text', (c) => c.notNull())
        .addColumn('private_key', 'text', (c) => c.notNull())
        .addColumn('created_at', int64, (c) => c.notNull())
        .execute();
    },
  };
}

/** The storage's migrations, in order (run by `pluginSql(...).migrate`, bookkeeping in `<prefix>_migrations`). */
export function jwksMigrations(t: JwksTables, traits: DialectTraits): Record<string, Migration> {
  return { '0001_jwks': initial(t, traits) };
}
