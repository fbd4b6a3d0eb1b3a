/**
 * Run history that outlives the process: finished runs in a SQL table (SQLite or PostgreSQL through Kysely),
 * written in batches off the runtime's hot path and read by the dashboard's pages.
 * @module
 */
import type { Kysely } from 'kysely';
import type { LogEntry, RunRecord } from '@framework/trigger';

/** Where {@link createRunHistory} keeps finished runs beyond its in-memory ring. */
export interface RunStore {
  /** Creates the table and its indexes when missing. Idempotent. */
  migrate(): Promise<void>;
  /** Appends finished runs (one multi-row insert). */
  write(runs: readonly RunRecord[]): Promise<void>;
  /** Newest first; at most `limit`, optionally of one trigger. */
  recent(options: { limit: number; trigger?: string | undefined }): Promise<RunRecord[]>;
  /** A run by its id. */
  get(id: string): Promise<RunRecord | undefined>;
  /** Deletes runs that started before `before`; resolves how many. */
  prune(before: Date): Promise<number>;
}

/** Options of {@link createSqlRunStore}. */
export interface SqlRunStoreOptions {
  /** Table name (letters, digits, `_`). Default `'framework_runs'`. */
  table?: string;
}

interface RunRow {
  id: string;
  trigger: string;
  source: string;
  attempt: number | string;
  trace_id: string;
  status: string;
  started_at: number | string;
  duration_ms: number | string;
  error: string | null;
  logs: string | null;
}

const TABLE = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * A {@link RunStore} on a Kysely database (SQLite or PostgreSQL): table `framework_runs` with the run's
 * columns, times as integer milliseconds (`bigint` in PostgreSQL), log lines as JSON text, and indexes on
 * `started_at` and `(trigger, started_at)`.
 *
 * @throws TypeError at creation for a malformed `table`.
 * @example
 * ```ts
 * import { Kysely, SqliteDialect } from 'kysely';
 * import Database from 'better-sqlite3';
 * import { createSqlRunStore } from '@framework/dashboard';
 *
 * const store = createSqlRunStore(new Kysely({ dialect: new SqliteDialect({ database: new Database('.data/app.db') }) }));
 * await store.migrate();
 * mountDashboard(app, { runtime, auth, history: { store } });
 * ```
 */
export function createSqlRunStore(db: Kysely<any>, options: SqlRunStoreOptions = {}): RunStore {
  const table = options.table ?? 'framework_runs';
  if (!TABLE.test(table)) throw new TypeError(`createSqlRunStore: table must be letters, digits and _, got "${table}"`);
  const toRecord = (row: RunRow): RunRecord => ({
    id: row.id,
    trigger: row.trigger,
    source: row.source as RunRecord['source'],
    attempt: Number(row.attempt),
    traceId: row.trace_id,
    status: row.status as RunRecord['status'],
    startedAt: new Date(Number(row.started_at)),
    durationMs: Number(row.duration_ms),
    ...(row.error !== null ? { error: row.error } : {}),
    logs: row.logs ? (JSON.parse(row.logs) as LogEntry[]).map((l) => ({ ...l, timestamp: new Date(l.timestamp) })) : [],
  });
  return {
    async migrate() {
      await db.schema
        .createTable(table)
        .ifNotExists()
        .addColumn('id', 'varchar(200)', (c) => c.primaryKey())
        .addColumn('trigger', 'varchar(200)', (c) => c.notNull())
        .addColumn('source', 'varchar(20)', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('trace_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('status', 'varchar(20)', (c) => c.notNull())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('duration_ms', 'double precision', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('logs', 'text')
        .execute();
      await db.schema.createIndex(`${table}_started`).ifNotExists().on(table).column('started_at').execute();
      await db.schema
        .createIndex(`${table}_trigger_started`)
        .ifNotExists()
        .on(table)
        .columns(['trigger', 'started_at'])
        .execute();
    },
    async write(runs) {
      if (runs.length === 0) return;
      await db
        .insertInto(table)
        .values(
          runs.map((run) => ({
            id: run.id,
            trigger: run.trigger,
            source: run.source,
            attempt: run.attempt,
            trace_id: run.traceId,
            status: run.status,
            started_at: run.startedAt.getTime(),
            duration_ms: run.durationMs,
            error: run.error ?? null,
            logs: run.logs.length > 0 ? JSON.stringify(run.logs) : null,
          })),
        )
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    },
    async recent({ limit, trigger }) {
      let query = db.selectFrom(table).selectAll().orderBy('started_at', 'desc').orderBy('id', 'desc').limit(limit);
      if (trigger !== undefined) query = query.where('trigger', '=', trigger);
      return ((await query.execute()) as RunRow[]).map(toRecord);
    },
    async get(id) {
      const row = (await db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst()) as
        RunRow | undefined;
      return row ? toRecord(row) : undefined;
    },
    async prune(before) {
      const result = await db.deleteFrom(table).where('started_at', '<', before.getTime()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
