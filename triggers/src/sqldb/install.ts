import type { Kysely } from 'kysely';
import { TriggerDefinitionError } from '../errors.js';
import type { SqlOperation } from '../types.js';
import { SQL_OPERATIONS } from '../validate/sources.js';
import { CHANNEL, dialectOf, identifier, OUTBOX, type ChangeDialect } from './dialect.js';

/** Options of {@link installChangeCapture}. */
export interface ChangeCaptureOptions {
  /** Tables whose row changes are captured (plain identifiers, in the connection's schema). */
  tables: readonly string[];
  /** Captured operations. Default all three. */
  operations?: readonly SqlOperation[];
  /** Override the dialect detected from the Kysely adapter. */
  dialect?: ChangeDialect;
}

type Sql = (typeof import('kysely'))['sql'];

const NOW_MS = {
  postgres: '(extract(epoch from clock_timestamp()) * 1000)::bigint',
  sqlite: "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)",
};

async function createOutbox(db: Kysely<any>, sql: Sql, dialect: ChangeDialect): Promise<void> {
  const id = dialect === 'postgres' ? 'id BIGSERIAL PRIMARY KEY' : 'id INTEGER PRIMARY KEY AUTOINCREMENT';
  await sql
    .raw(
      `CREATE TABLE IF NOT EXISTS ${OUTBOX} (
        ${id},
        table_name TEXT NOT NULL,
        operation TEXT NOT NULL,
        primary_key TEXT,
        old_row TEXT,
        new_row TEXT,
        created_at BIGINT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        available_at BIGINT NOT NULL DEFAULT 0,
        claimed_by TEXT,
        claimed_until BIGINT,
        delivered TEXT NOT NULL DEFAULT '[]',
        failed_at BIGINT,
        last_error TEXT
      )`,
    )
    .execute(db);
}

async function postgresPrimaryKey(db: Kysely<any>, sql: Sql, table: string): Promise<string[]> {
  const result = await sql<{ attname: string }>`
    SELECT a.attname FROM pg_index i
    JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
    WHERE i.indrelid = to_regclass(${identifier(table)}) AND i.indisprimary
    ORDER BY array_position(i.indkey::int2[], a.attnum)`.execute(db);
  return result.rows.map((r) => r.attname);
}

async function installPostgres(
  db: Kysely<any>,
  sql: Sql,
  tables: readonly string[],
  operations: readonly SqlOperation[],
): Promise<void> {
  const schema =
    (await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db)).rows[0]?.schema ?? 'public';
  const qualified = `"${schema.replace(/"/g, '""')}"`;
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION ${qualified}.framework_capture_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
      DECLARE
        row_data jsonb;
        pk jsonb := NULL;
      BEGIN
        IF TG_OP = 'DELETE' THEN row_data := to_jsonb(OLD); ELSE row_data := to_jsonb(NEW); END IF;
        IF TG_NARGS = 1 THEN
          pk := row_data -> TG_ARGV[0];
        ELSIF TG_NARGS > 1 THEN
          pk := '{}'::jsonb;
          FOR i IN 0..TG_NARGS - 1 LOOP pk := pk || jsonb_build_object(TG_ARGV[i], row_data -> TG_ARGV[i]); END LOOP;
        END IF;
        INSERT INTO ${qualified}.${OUTBOX} (table_name, operation, primary_key, old_row, new_row, created_at)
        VALUES (TG_TABLE_NAME, TG_OP, pk::text,
          CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE to_jsonb(OLD)::text END,
          CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE to_jsonb(NEW)::text END,
          ${NOW_MS.postgres});
        PERFORM pg_notify('${CHANNEL}', TG_TABLE_NAME);
        RETURN NULL;
      END $fn$`,
    )
    .execute(db);
  for (const table of tables) {
    const keys = await postgresPrimaryKey(db, sql, table);
    const args = keys.map((k) => `'${k.replace(/'/g, "''")}'`).join(', ');
    await sql.raw(`DROP TRIGGER IF EXISTS framework_capture ON ${identifier(table)}`).execute(db);
    await sql
      .raw(
        `CREATE TRIGGER framework_capture AFTER ${operations.join(' OR ')} ON ${identifier(table)}
         FOR EACH ROW EXECUTE FUNCTION ${qualified}.framework_capture_change(${args})`,
      )
      .execute(db);
  }
}

async function installSqlite(
  db: Kysely<any>,
  sql: Sql,
  tables: readonly string[],
  operations: readonly SqlOperation[],
): Promise<void> {
  for (const table of tables) {
    const columns = (
      await sql<{ name: string; pk: number }>`SELECT name, pk FROM pragma_table_info(${table})`.execute(db)
    ).rows;
    if (columns.length === 0) throw new TriggerDefinitionError('tables', `table '${table}' does not exist`);
    const rowJson = (alias: string) =>
      `json_object(${columns.map((c) => `'${c.name}', ${alias}.${identifier(c.name)}`).join(', ')})`;
    const keys = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    const pkJson = (alias: string) =>
      keys.length === 0
        ? 'NULL'
        : keys.length === 1
          ? `json_quote(${alias}.${identifier(keys[0]!.name)})`
          : `json_object(${keys.map((k) => `'${k.name}', ${alias}.${identifier(k.name)}`).join(', ')})`;
    for (const operation of SQL_OPERATIONS) {
      const name = `framework_capture_${table}_${operation.toLowerCase()}`;
      await sql.raw(`DROP TRIGGER IF EXISTS ${identifier(name)}`).execute(db);
      if (!operations.includes(operation)) continue;
      const alias = operation === 'DELETE' ? 'OLD' : 'NEW';
      await sql
        .raw(
          `CREATE TRIGGER ${identifier(name)} AFTER ${operation} ON ${identifier(table)} BEGIN
            INSERT INTO ${OUTBOX} (table_name, operation, primary_key, old_row, new_row, created_at)
            VALUES ('${table}', '${operation}', ${pkJson(alias)},
              ${operation === 'INSERT' ? 'NULL' : rowJson('OLD')},
              ${operation === 'DELETE' ? 'NULL' : rowJson('NEW')},
              ${NOW_MS.sqlite});
          END`,
        )
        .execute(db);
    }
  }
}

/**
 * Creates the outbox table `framework_changes` (if missing) and database
 * triggers that write one row per captured change: table, operation, primary
 * key (the column's value, or an object of the columns for a composite key,
 * `null` without a primary key), old row, new row (JSON) and creation time
 * (epoch ms). Idempotent: running it again replaces the triggers, e.g. after
 * a column was added (SQLite triggers list the columns).
 *
 * - **PostgreSQL:** one PL/pgSQL function `framework_capture_change()` in the
 *   current schema and a row trigger `framework_capture` per table; each
 *   change also sends `NOTIFY framework_changes` to wake consumers at once.
 * - **SQLite:** `framework_capture_<table>_<operation>` triggers; consumers poll.
 *
 * Run it in your migrations, in the same database the runtime reads
 * (`createTriggerRuntime({databases: {name: db}})`). Needs the `kysely` package.
 *
 * @throws {TriggerDefinitionError} code `INVALID_TRIGGER_DEFINITION` for an empty or non-identifier table
 * list, an unknown operation, a missing SQLite table or an unsupported dialect
 * @example
 * ```ts
 * await installChangeCapture(db, { tables: ['orders', 'users'], operations: ['INSERT', 'UPDATE'] });
 * ```
 */
export async function installChangeCapture(db: Kysely<any>, options: ChangeCaptureOptions): Promise<void> {
  const dialect = dialectOf(db, options.dialect);
  if (!Array.isArray(options.tables) || options.tables.length === 0) {
    throw new TriggerDefinitionError('tables', 'expected a non-empty list of table names');
  }
  for (const table of options.tables) identifier(table);
  const operations = options.operations ?? SQL_OPERATIONS;
  for (const operation of operations) {
    if (!SQL_OPERATIONS.includes(operation))
      throw new TriggerDefinitionError('operations', `unknown operation '${operation}' (INSERT, UPDATE, DELETE)`);
  }
  const { sql } = await import('kysely');
  await createOutbox(db, sql, dialect);
  if (dialect === 'postgres') await installPostgres(db, sql, options.tables, operations);
  else await installSqlite(db, sql, options.tables, operations);
}
