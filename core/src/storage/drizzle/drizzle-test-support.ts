/**
 * Test support for the Drizzle adapter on PostgreSQL: node-postgres pools on fresh, empty schemas (their
 * `search_path` is that schema only), dropped with `dropAll()` after the file.
 * @module
 * @internal
 */
import { sql } from 'kysely';
import type { Pool } from 'pg';
import { postgresSchemas } from '../../../../test-support/pg-schemas.js';
import { DATABASE_URL } from '../../../../test-support/services.js';

export interface PgPools {
  /** Whether PostgreSQL is up (under CI=true a missing server throws instead). */
  available: boolean;
  /** A pool on a new, empty schema; the caller ends it. */
  pool(): Promise<Pool>;
  dropAll(): Promise<void>;
}

/** @param prefix Names the schemas, e.g. `drizzle_test`. */
export async function pgPools(prefix: string): Promise<PgPools> {
  const schemas = await postgresSchemas(prefix);
  return {
    available: schemas.available,
    async pool() {
      const isolated = await schemas.isolated();
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(isolated);
      await isolated.destroy();
      const { default: pg } = await import('pg');
      return new pg.Pool({ connectionString: DATABASE_URL, max: 4, options: `-c search_path=${rows[0]!.schema}` });
    },
    dropAll: () => schemas.dropAll(),
  };
}
