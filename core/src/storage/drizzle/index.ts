/**
 * `@framework/auth/drizzle`: the storage adapter over a Drizzle database (SQLite on better-sqlite3, PostgreSQL on
 * node-postgres) and the Drizzle schema file of the kit's tables. Needs `drizzle-orm` (an optional peer).
 * @module
 */
export { createDrizzleAdapter, type DrizzleAdapterOptions, type DrizzleStorageAdapter } from './adapter.js';
export type { DrizzleDatabase } from './connection.js';
export { generateDrizzleSchema, type GenerateDrizzleSchemaOptions } from './generate.js';
export type { DrizzleDialect } from './spec.js';
export type { DrizzleAuthSchema } from './tables.js';
