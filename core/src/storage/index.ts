/**
 * Storage for `@framework/auth`: the {@link StorageAdapter} contract and its
 * implementations (memory, SQLite, PostgreSQL, MySQL/MariaDB, any Kysely database).
 *
 * Importing this module never loads `better-sqlite3`, `pg` or `mysql2`: the
 * SQLite, PostgreSQL and MySQL factories import them on their first call.
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
export {
  createD1Adapter,
  D1Dialect,
  type D1AdapterOptions,
  type D1DatabaseLike,
  type D1StatementLike,
  type D1ResultLike,
  type D1Value,
} from './d1/index.js';
