/**
 * What a Drizzle database is: its dialect, and a Kysely instance over the same driver client (`db.$client`) for
 * the kit's migrations and the plugins' SQL storages.
 * @module
 * @internal
 */
import { is } from 'drizzle-orm';
import { PgDatabase } from 'drizzle-orm/pg-core';
import { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';
import { Kysely, PostgresDialect, SqliteDialect, type PostgresPool, type SqliteDatabase } from 'kysely';
import type { DrizzleDialect } from './spec.js';

/** A Drizzle database on better-sqlite3 (`drizzle-orm/better-sqlite3`) or node-postgres (`drizzle-orm/node-postgres`). */
export type DrizzleDatabase = BaseSQLiteDatabase<'sync', any, any, any> | PgDatabase<any, any, any>;

/** The dialect of `db` and a Kysely instance on its client. */
export interface DrizzleConnection {
  dialect: DrizzleDialect;
  kysely: Kysely<any>;
}

const UNSUPPORTED =
  'createDrizzleAdapter takes a Drizzle database on better-sqlite3 (drizzle-orm/better-sqlite3) or node-postgres (drizzle-orm/node-postgres)';

/**
 * A node-postgres `Client` as a pool of one for Kysely (a `Pool` is used as it is). Kysely never ends it: the
 * app owns the client.
 */
function asPool(client: any): PostgresPool {
  if (typeof client.totalCount === 'number') return client as PostgresPool;
  const connection = { query: (...args: unknown[]) => client.query(...args), release() {} };
  return { connect: async () => connection as never, end: async () => {} };
}

/**
 * @throws TypeError when `db` is not a Drizzle database on better-sqlite3 or node-postgres.
 */
export function drizzleConnection(db: DrizzleDatabase): DrizzleConnection {
  const client = (db as { $client?: any } | null)?.$client;
  if (is(db, BaseSQLiteDatabase)) {
    if (typeof client?.prepare !== 'function' || typeof client?.pragma !== 'function')
      throw new TypeError(`${UNSUPPORTED}; this SQLite driver is not better-sqlite3`);
    // Kysely's destroy() would close the file: the adapter never calls it (the app owns `db`).
    return {
      dialect: 'sqlite',
      kysely: new Kysely<any>({ dialect: new SqliteDialect({ database: client as SqliteDatabase }) }),
    };
  }
  if (is(db, PgDatabase)) {
    if (typeof client?.query !== 'function' || typeof client?.connect !== 'function')
      throw new TypeError(`${UNSUPPORTED}; this PostgreSQL driver is not node-postgres`);
    return { dialect: 'postgres', kysely: new Kysely<any>({ dialect: new PostgresDialect({ pool: asPool(client) }) }) };
  }
  throw new TypeError(UNSUPPORTED);
}
