/**
 * Runs code-defined migrations with Kysely's Migrator. On PostgreSQL the
 * bookkeeping tables are pinned to `current_schema()`: without that, Kysely
 * looks for its migration table in every schema, and same-named tables in
 * another schema would be mistaken for ours.
 * @internal
 * @module
 */
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import type { SqlDialectName } from './dialect.js';

export interface MigrationRun {
  migrations: Record<string, Migration>;
  /** Name of the table recording applied migrations. */
  table: string;
  /** Name of the lock table. */
  lockTable: string;
  dialect: SqlDialectName;
}

/**
 * PostgreSQL `invalid_schema_name`: Kysely's introspection lists every schema, so a schema dropped meanwhile
 * fails it.
 */
const PG_INVALID_SCHEMA = '3F000';

/**
 * Brings the schema up to date; idempotent. A PostgreSQL introspection that
 * raced a concurrent `DROP SCHEMA` elsewhere in the database is retried.
 * @throws the first migration error.
 */
export async function runMigrations(db: Kysely<any>, run: MigrationRun): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateOnce(db, run);
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (run.dialect !== 'postgres' || code !== PG_INVALID_SCHEMA || attempt >= 5) throw error;
    }
  }
}

async function migrateOnce(db: Kysely<any>, run: MigrationRun): Promise<void> {
  let schema: string | undefined;
  if (run.dialect === 'postgres') {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    schema = rows[0]?.schema;
  }
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => run.migrations },
    migrationTableName: run.table,
    migrationLockTableName: run.lockTable,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error } = await migrator.migrateToLatest();
  if (error !== undefined) throw error;
}
