/**
 * Storage for `@framework/auth`: the {@link StorageAdapter} contract and its
 * implementations (memory, SQLite, PostgreSQL, MySQL/MariaDB, any Kysely database).
 *
 * Importing this module never loads Kysely, `better-sqlite3`, `pg` or `mysql2`:
 * the SQL factories start loading Kysely when they create an adapter, and
 * import the driver on its first call. The Kysely `D1Dialect` is exported
 * from `@framework/auth/d1`.
 * @module
 */
export { createMemoryAdapter } from './memory.js';
export { encryptAccountTokens } from './encrypted-tokens.js';
export {
  createMysqlAdapter,
  type MysqlAdapterOptions,
  type MysqlPoolConfig,
  type MysqlPoolLike,
  createPostgresAdapter,
  createSqlAdapter,
  createSqliteAdapter,
  generateMigrationSql,
  type GenerateMigrationSqlOptions,
  type MissingDependencyError,
  type PgPoolLike,
  type PostgresAdapterOptions,
  type SqlAdapterOptions,
  type SqlDialectName,
  type SqliteAdapterOptions,
} from './sql/index.js';
export {
  StorageConflictError,
  type AdapterAccount,
  type AdapterSession,
  type AdapterUser,
  type Authenticator,
  type NewUser,
  type PurgeOptions,
  type PurgeResult,
  type StorageAdapter,
  type VerificationToken,
} from './types.js';
export { createD1Adapter, type D1AdapterOptions } from './d1/adapter.js';
export type { D1DatabaseLike, D1StatementLike, D1ResultLike, D1Value } from './d1/binding.js';
