/**
 * The SQLite session read's row cache: every request reads its session row, and on SQLite a table read costs a
 * read transaction (a lock and an unlock on the `-shm` file and a `fstat`: three system calls, most of a read's
 * 5–7 µs on a virtual machine). A row read before is answered from memory while nothing can have changed it:
 *
 * - **Writes on this connection** (every write of this adapter, its plugins and the app's own Kysely queries on
 *   it): `total_changes()` counts the rows they change, without a read transaction (0.3 µs), and the connection
 *   counts the statements that change no row but may change what a read returns (`CREATE`, `ALTER`, `DROP`:
 *   schema changes, such as `ADD COLUMN` with a default, which `total_changes()` misses); any change empties the
 *   cache.
 * - **Writes from other connections** (another process, the CLI, a second adapter on the same file):
 *   `PRAGMA data_version` changes when one commits. It costs a read transaction, so it is asked at most once per
 *   `otherConnectionsMs` (default 1 ms) and the cache is emptied when it moved. Such a write is seen at most
 *   that long after its commit.
 *
 * While the connection is inside a transaction (a Kysely transaction awaiting between its statements), reads go
 * to the table and nothing is cached: a row written there may still be rolled back, which `total_changes()` does
 * not undo.
 *
 * Rows are returned as stored (read-only: the store decodes a fresh user and session from them on every read). A
 * row not found is never cached. At most `maxEntries` rows are kept, the oldest dropped first.
 * @internal
 * @module
 */

/** The statements the cache needs from one better-sqlite3 connection, in raw mode. */
export interface SqliteReadCacheConnection {
  /**
   * A count that grows with every write on this connection: `SELECT total_changes()` (rows inserted, updated or
   * deleted, cascades and triggers included) plus the schema-changing statements run (`CREATE`, `ALTER`, `DROP`).
   */
  changes(): number;
  /** `PRAGMA data_version`, raw, its value first: `[n, …]`. */
  dataVersion: { get(): unknown };
  /** Whether a transaction is open on the connection (better-sqlite3's `database.inTransaction`). */
  inTransaction(): boolean;
}

/** Options of {@link cachedRowRead}. */
export interface SqliteReadCacheOptions {
  /** Most rows kept. Default 10 000. */
  maxEntries?: number;
  /** How long, in ms, a write from another connection may go unseen. Default 1. */
  otherConnectionsMs?: number;
  /** A monotonic clock in ms. Default `performance.now`. */
  now?: () => number;
}

const first = (row: unknown): unknown => (row as unknown[] | undefined)?.[0];

/**
 * `read` (one parameter: the key, e.g. a session id) with its found rows cached while `connection` saw no write.
 * @example
 * ```ts
 * const read = cachedRowRead((params) => statement.get(...params), {
 *   changes: () => totalChanges.get()[0] + schemaStatementsRun,
 *   dataVersion: database.prepare('PRAGMA data_version').raw(true),
 *   inTransaction: () => database.inTransaction,
 * });
 * ```
 */
export function cachedRowRead<R extends object>(
  read: (params: readonly unknown[]) => R | undefined,
  connection: SqliteReadCacheConnection,
  options: SqliteReadCacheOptions = {},
): (params: readonly unknown[]) => R | undefined {
  const maxEntries = options.maxEntries ?? 10_000;
  const otherConnectionsMs = options.otherConnectionsMs ?? 1;
  const now = options.now ?? (() => performance.now());
  const rows = new Map<unknown, R>();
  let changes: number | undefined;
  let version: unknown;
  let versionAt = Number.NEGATIVE_INFINITY;
  return (params) => {
    if (connection.inTransaction()) return read(params);
    const at = now();
    if (at - versionAt >= otherConnectionsMs) {
      const seen = first(connection.dataVersion.get());
      versionAt = at;
      if (seen !== version) {
        version = seen;
        rows.clear();
      }
    }
    const seenChanges = connection.changes();
    if (seenChanges !== changes) {
      changes = seenChanges;
      rows.clear();
    }
    const key = params[0];
    const cached = rows.get(key);
    if (cached !== undefined) return cached;
    const row = read(params);
    if (row === undefined) return undefined;
    if (rows.size >= maxEntries) rows.delete(rows.keys().next().value);
    rows.set(key, row);
    return row;
  };
}
