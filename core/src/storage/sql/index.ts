/**
 * The SQL storage adapters over Kysely.
 * @module
 */
export { sqlAdapter, type SqlAdapterOptions } from './adapter.js';
export type { SqlDialectName } from './dialect.js';
export type { MissingDependencyError } from './optional-import.js';
export { postgresAdapter, type PostgresAdapterOptions } from './postgres.js';
export { sqliteAdapter, type SqliteAdapterOptions } from './sqlite.js';
