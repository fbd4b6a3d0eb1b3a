/**
 * The table of the SQL key storage, as Kysely migrations created by code.
 * @module
 * @internal
 */
import type { Kysely, Migration } from 'kysely';
import { runMigrations } from '../../../storage/sql/migrator.js';
import { createTable, type DialectTraits, type SqlDialectName } from '../../../storage/sql/dialect.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,40}$/;

/** The names of the storage's tables for one `tableName`. */
export interface JwksTables {
  keys: string;
  migrations: string;
  migrationLock: string;
}

/**
 * Table names derived from `tableName`: `<name>`, `<name>_migrations`,
 * `<name>_migrations_lock`.
 * @throws TypeError when `tableName` is not a plain SQL identifier.
 */
export function jwksTables(tableName = 'auth_jwks'): JwksTables {
  if (typeof tableName !== 'string' || !IDENTIFIER.test(tableName)) {
    throw new TypeError(`tableName must match ${IDENTIFIER} (letters, digits, "_"); got ${JSON.stringify(tableName)}`);
  }
  return { keys: tableName, migrations: `${tableName}_migrations`, migrationLock: `${tableName}_migrations_lock` };
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

/** Brings the table up to date; idempotent. @throws the first migration error. */
export async function migrateJwksTables(
  db: Kysely<any>,
  t: JwksTables,
  dialect: SqlDialectName,
  traits: DialectTraits,
): Promise<void> {
  await runMigrations(db, {
    migrations: { '0001_jwks': initial(t, traits) },
    table: t.migrations,
    lockTable: t.migrationLock,
    dialect,
  });
}
