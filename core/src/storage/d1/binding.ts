/**
 * The slice of Cloudflare's D1 binding the adapter uses, typed here so the
 * kit needs no `@cloudflare/workers-types`. A real `env.DB`, Miniflare's
 * `mf.getD1Database(name)` and any object with the same shape fit.
 * @module
 */

/** A value D1 can bind: numbers, strings, null, and blobs. */
export type D1Value = string | number | null | ArrayBuffer | ArrayBufferView;

/** What `all()` and `run()` resolve to (only the fields the adapter reads). */
export interface D1ResultLike<Row = Record<string, unknown>> {
  results?: Row[];
  meta?: { changes?: number; last_row_id?: number } & Record<string, unknown>;
}

/** A prepared statement: `bind()` returns a new statement with parameters. */
export interface D1StatementLike {
  bind(...values: D1Value[]): D1StatementLike;
  first<Row = Record<string, unknown>>(column?: string): Promise<Row | null>;
  all<Row = Record<string, unknown>>(): Promise<D1ResultLike<Row>>;
  run<Row = Record<string, unknown>>(): Promise<D1ResultLike<Row>>;
}

/** A D1 database binding (`env.DB`). `batch()` runs its statements in one implicit transaction. */
export interface D1DatabaseLike {
  prepare(sql: string): D1StatementLike;
  batch<Row = Record<string, unknown>>(statements: D1StatementLike[]): Promise<D1ResultLike<Row>[]>;
}
