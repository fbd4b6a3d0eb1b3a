/**
 * Test support: the query plan of the statements a storage call runs, on
 * SQLite (`EXPLAIN QUERY PLAN`) and PostgreSQL (`EXPLAIN`), so tests can fail
 * on a full table scan or a sort of every matching row. Statements are
 * captured with a Kysely `log` hook and explained with their parameters.
 * @module
 * @internal
 */
import { CompiledQuery, type Kysely, type LogEvent } from 'kysely';
import type { SqlDialectName } from './dialect.js';

/** Statements seen by a Kysely `log` hook. */
export interface StatementLog {
  log(event: LogEvent): void;
  /** Every statement since the last `clear()`. */
  readonly statements: { sql: string; parameters: readonly unknown[] }[];
  clear(): void;
}

/** A `log` hook for `new Kysely({ log })` recording each statement run. */
export function statementLog(): StatementLog {
  const statements: { sql: string; parameters: readonly unknown[] }[] = [];
  return {
    statements,
    log(event) {
      if (event.level === 'query') statements.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
    clear() {
      statements.length = 0;
    },
  };
}

/**
 * The plan of `statement`, one line per step: SQLite's `detail` column
 * (e.g. `SEARCH audit_log USING INDEX audit_log_type_at_id_idx (type=?)`) or
 * PostgreSQL's text plan (e.g. `Index Scan Backward using … on audit_log`,
 * `Index Cond: (type = $1)`).
 */
export async function queryPlan(
  db: Kysely<any>,
  dialect: SqlDialectName,
  statement: { sql: string; parameters: readonly unknown[] },
): Promise<string[]> {
  const prefix = dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
  const { rows } = await db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(prefix + statement.sql, [...statement.parameters]),
  );
  return rows.map((row) => String(dialect === 'sqlite' ? row.detail : row['QUERY PLAN']).trim());
}

/**
 * The step of `plan` that reads `table` in full, or null: a SQLite
 * `SCAN <table>` without an index, a PostgreSQL `Seq Scan on <table>`.
 */
export function fullScan(plan: readonly string[], table: string): string | null {
  const scan = new RegExp(`^(SCAN ${table}\\b(?!.*USING)|(->\\s*)?Seq Scan on ${table}\\b)`);
  return plan.find((line) => scan.test(line)) ?? null;
}

/**
 * The step of a SQLite `plan` that sorts what it found (`USE TEMP B-TREE FOR … ORDER BY`), or null. (PostgreSQL
 * sorts a handful of rows found through an index when that is cheaper, so its plans are not held to this.)
 */
export function sqliteSort(plan: readonly string[]): string | null {
  return plan.find((line) => /TEMP B-TREE FOR .*ORDER BY/.test(line)) ?? null;
}

/** Whether `plan` looks rows up by `column` in an index (SQLite `(column=?`, PostgreSQL `Index Cond: (… column …)`). */
export function searchesBy(plan: readonly string[], column: string): boolean {
  return plan.some(
    (line) =>
      new RegExp(`USING (COVERING )?INDEX \\S+ \\(${column}=`).test(line) ||
      new RegExp(`Index Cond: .*\\b${column}\\b`).test(line),
  );
}
