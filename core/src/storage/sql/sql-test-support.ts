/**
 * Test support for the SQL store's own tests: a migrated SQL adapter over a
 * Kysely instance the test also holds (to seed rows in bulk and read query
 * plans), on SQLite (`:memory:`) and on PostgreSQL (a fresh schema).
 * @module
 * @internal
 */
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type KyselyConfig } from 'kysely';
import { postgresSchemas, type PostgresSchemas } from '../../../../test-support/pg-schemas.js';
import { DATABASE_URL } from '../../../../test-support/services.js';
import type { StorageAdapter } from '../types.js';
import { createSqlAdapter } from './adapter.js';
import { createPostgresAdapter } from './postgres.js';
import type { SqlDialectName } from './dialect.js';

/** A migrated adapter and the Kysely instance under it. */
export interface SqlTestDb {
  dialect: SqlDialectName;
  db: Kysely<any>;
  adapter: StorageAdapter;
  close(): Promise<void>;
}

/** Opens SQL test databases; `dropAll` after the file. */
export interface SqlTestDbs {
  /** The dialects that can run here (PostgreSQL only when the server is up). */
  dialects: SqlDialectName[];
  open(dialect: SqlDialectName, log?: KyselyConfig['log']): Promise<SqlTestDb>;
  dropAll(): Promise<void>;
}

/** @param prefix Names the PostgreSQL schemas, e.g. `purge_test`. */
export async function sqlTestDbs(prefix: string): Promise<SqlTestDbs> {
  const pg = await postgresSchemas(prefix);
  return {
    dialects: pg.available ? ['sqlite', 'postgres'] : ['sqlite'],
    async open(dialect, log) {
      let db: Kysely<any>;
      if (dialect === 'sqlite') {
        db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }), log });
      } else {
        // A fresh schema, connected to by a Kysely of our own so the log hook sees every statement.
        const isolated = await pg.isolated();
        const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(isolated);
        await isolated.destroy();
        const { default: pgModule } = await import('pg');
        const pool = new pgModule.Pool({
          connectionString: DATABASE_URL,
          max: 2,
          options: `-c search_path=${rows[0]!.schema}`,
        });
        db = new Kysely<any>({ dialect: new PostgresDialect({ pool }), log });
      }
      const adapter = createSqlAdapter({ db, dialect });
      await adapter.migrate();
      return { dialect, db, adapter, close: () => db.destroy() };
    },
    dropAll: () => pg.dropAll(),
  };
}

/**
 * A `createPostgresAdapter` over a pool of its own, in a fresh schema of `pg` (not migrated); its `close()` ends
 * the pool too. For tests that run the kit end to end on PostgreSQL.
 */
export async function postgresAdapterIn(
  pg: PostgresSchemas,
  { max = 2 }: { max?: number } = {},
): Promise<StorageAdapter> {
  const isolated = await pg.isolated();
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(isolated);
  await isolated.destroy();
  const { default: pgModule } = await import('pg');
  const pool = new pgModule.Pool({
    connectionString: DATABASE_URL,
    max,
    options: `-c search_path=${rows[0]!.schema}`,
  });
  const adapter = createPostgresAdapter({ pool });
  return Object.assign(Object.create(adapter) as StorageAdapter, {
    close: async () => {
      await adapter.close?.();
      await pool.end();
    },
  });
}
