/**
 * `createSqlAdapter`: the storage adapter over a Kysely instance you own.
 * @module
 */
import type { Kysely } from 'kysely';
import type { StorageAdapter } from '../types.js';
import type { SqlDialectName } from './dialect.js';
import { lazySqlStore } from './lazy-store.js';

/** Options of {@link createSqlAdapter}. */
export interface SqlAdapterOptions {
  /** A Kysely instance. Its plugins are bypassed: the adapter uses its own column names. */
  db: Kysely<any>;
  /** Which SQL the database speaks. */
  dialect: SqlDialectName;
  /**
   * Prefix of every table name (letters, digits, `_`; at most 31 characters).
   * Default `'auth_'`: tables `auth_users`, `auth_accounts`, `auth_sessions`,
   * `auth_verification_tokens`, `auth_authenticators`, `auth_migrations`,
   * `auth_migrations_lock`.
   */
  tablePrefix?: string;
}

/**
 * Creates a storage adapter over a Kysely database: SQLite (≥ 3.35, for
 * `RETURNING`), PostgreSQL, or MySQL/MariaDB (`dialect: 'mysql'`, Kysely's
 * `MysqlDialect`; see `createMysqlAdapter` for what differs there). Call `migrate()` once at start-up to create or
 * upgrade the tables; it is idempotent.
 *
 * Times are stored as integer milliseconds since the epoch (`bigint` in
 * PostgreSQL), `roles` and `transports` as JSON text, and emails with a
 * lower-cased copy under a unique index. Accounts, sessions and
 * authenticators reference users with `ON DELETE CASCADE`.
 *
 * Methods reject with `StorageConflictError` (`code: 'CONFLICT'`) on a
 * taken unique field; other database errors pass through unchanged.
 * `close()` does nothing: the caller owns `db` and destroys it.
 *
 * Importing `@framework/auth` does not load Kysely or this adapter's code: creating an adapter starts loading
 * them, and calls made meanwhile wait for that load. `adapter.kysely` (the handle plugins keep their tables
 * through) is therefore undefined until it ends; `await adapter.loadKysely()` resolves to it.
 *
 * @throws TypeError at creation for an unknown dialect or a malformed `tablePrefix`.
 * @example
 * ```ts
 * import { Kysely, PostgresDialect } from 'kysely';
 * import pg from 'pg';
 * import { createSqlAdapter } from '@framework/auth';
 *
 * const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString }) }) });
 * const adapter = createSqlAdapter({ db, dialect: 'postgres' });
 * await adapter.migrate();
 * ```
 */
export function createSqlAdapter(options: SqlAdapterOptions): StorageAdapter {
  const { db } = options;
  return lazySqlStore({
    dialect: options.dialect,
    tablePrefix: options.tablePrefix,
    open: async () => ({ db, close: async () => {} }),
  });
}
