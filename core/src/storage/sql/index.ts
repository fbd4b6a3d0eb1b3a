/**
 * The SQL storage adapters over Kysely.
 * @module
 */
export { createSqlAdapter, type SqlAdapterOptions } from './adapter.js';
export type { SqlDialectName } from './dialect.js';
export { generateMigrationSql, type GenerateMigrationSqlOptions } from './generate.js';
export type { MissingDependencyError } from './optional-import.js';
export { createMysqlAdapter, type MysqlAdapterOptions, type MysqlPoolConfig, type MysqlPoolLike } from './mysql.js';
export { createPostgresAdapter, type PgPoolLike, type PostgresAdapterOptions } from './postgres.js';
export { createSqliteAdapter, type SqliteAdapterOptions } from './sqlite.js';
