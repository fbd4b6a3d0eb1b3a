/**
 * `createSqliteAdapter`: the embedded default, a SQLite file through better-sqlite3.
 * @module
 */
import type { StorageAdapter } from '../types.js';
import { explainSqliteError } from './explain-errors.js';
import { importOptional, importPackage } from './optional-import.js';
import { lazySqlStore } from './lazy-store.js';
import type { PreparedRead } from './store.js';
import { SQLITE_AUTOCHECKPOINT_PAGES, startCheckpointer } from './sqlite-checkpointer.js';
import { cachedRowRead } from './sqlite-read-cache.js';
import { countingDatabase, namedRowReader } from './sqlite-session-statement.js';

/** Options of {@link createSqliteAdapter}. */
export interface SqliteAdapterOptions {
  /**
   * Path of the database file, e.g. `'.data/auth.db'` (relative to the
   * working directory), or `':memory:'` for a private in-memory database.
   */
  filename: string;
  /** Prefix of every table name. Default `'auth_'`; see `SqlAdapterOptions.tablePrefix`. */
  tablePrefix?: string;
  /**
   * The most KiB of database pages this connection keeps in memory (`PRAGMA cache_size = -N`). Default 65 536
   * (64 MiB; filled only as pages are read). SQLite's own default, 2 MiB, holds a few hundred thousand sessions'
   * index pages: beyond that each session read costs two to four file reads.
   */
  cacheSizeKiB?: number;
  /**
   * How many bytes of the file are read through a memory map instead of `read()` calls
   * (`PRAGMA mmap_size`). Default 268 435 456 (256 MiB); 0 turns it off (e.g. on a network file system, where a
   * failing read stops the process instead of failing the statement).
   */
  mmapSizeBytes?: number;
  /**
   * Whether a commit waits for the disk (`PRAGMA synchronous`; the file is in WAL mode). Default `'normal'`: a
   * commit appends to the `-wal` file without an fsync; the fsyncs happen at checkpoints, which a worker thread
   * runs five times a second off the event loop (for a file; the connection itself checkpoints at SQLite's
   * 1 000 pages only if the worker cannot run). The database stays consistent either way, and an application crash
   * or `kill -9` loses nothing committed (the operating system holds the writes). A power loss or
   * operating-system crash may undo the commits made since the last checkpoint (sign-ins, sign-outs, password
   * changes: they are rolled back whole, never half-written), never corrupt the file. `'full'` fsyncs the `-wal`
   * file on every commit, so every commit survives a power loss too, at the cost of one disk flush per write
   * while the event loop waits (better-sqlite3 is synchronous; 58–121 ms per write measured at a million users
   * on a loaded disk). Ignored for `':memory:'`.
   */
  synchronous?: 'normal' | 'full';
  /**
   * The session read's row cache (every request reads its session). A table read on SQLite takes a read
   * transaction: a lock, an unlock and a `fstat` of the file, three system calls that are most of a read's cost
   * on a virtual machine. With the cache, a session row read before is answered from memory while nothing can
   * have changed it: any write on this connection (this adapter, its plugins, the app's queries through
   * `adapter.kysely`) empties it at once (`total_changes()`, and every `CREATE`, `ALTER` or `DROP` statement for
   * schema changes), and a commit from another connection (another
   * process, the CLI, a second adapter on the file) is seen within `otherConnectionsMs` (`PRAGMA data_version`,
   * asked at most that often). Inside an open transaction the table is read directly. Default on, with
   * `{ maxEntries: 10_000, otherConnectionsMs: 1 }`; `false` reads the table on every request.
   */
  sessionReadCache?: false | { maxEntries?: number; otherConnectionsMs?: number };
}

const IN_MEMORY = new Set([':memory:', '']);
/** {@link SqliteAdapterOptions.cacheSizeKiB}'s default: 64 MiB. */
export const SQLITE_CACHE_SIZE_KIB = 65_536;
/** {@link SqliteAdapterOptions.mmapSizeBytes}'s default: 256 MiB. */
export const SQLITE_MMAP_SIZE_BYTES = 268_435_456;

/** {@link SqliteAdapterOptions.synchronous}'s values, as `PRAGMA synchronous` reads them back (1, 2). */
const SYNCHRONOUS = { normal: 'NORMAL', full: 'FULL' } as const;

/** {@link SqliteAdapterOptions.sessionReadCache} checked, with its defaults; false when off. */
function readCacheOption(
  value: SqliteAdapterOptions['sessionReadCache'],
): false | { maxEntries: number; otherConnectionsMs: number } {
  if (value === false) return false;
  if (value !== undefined && (typeof value !== 'object' || value === null))
    throw new TypeError('createSqliteAdapter: sessionReadCache must be false or { maxEntries?, otherConnectionsMs? }');
  const maxEntries = sizeOption('sessionReadCache.maxEntries', value?.maxEntries, 10_000);
  const otherConnectionsMs = value?.otherConnectionsMs ?? 1;
  if (!Number.isFinite(otherConnectionsMs) || otherConnectionsMs < 0)
    throw new TypeError('createSqliteAdapter: sessionReadCache.otherConnectionsMs must be a number of ms, 0 or more');
  return maxEntries === 0 ? false : { maxEntries, otherConnectionsMs };
}

/** `value` when it is a whole number of 0 or more. */
function sizeOption(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0)
    throw new TypeError(`createSqliteAdapter: ${name} must be a whole number, 0 or more`);
  return value;
}

/**
 * Creates a storage adapter over a SQLite file, through better-sqlite3 (an
 * optional peer dependency: `npm install better-sqlite3`).
 *
 * Nothing is opened until the first call. Then better-sqlite3 is imported,
 * the file's parent folder is created if missing, and the database is opened
 * with `journal_mode = WAL`, `foreign_keys = ON`, `synchronous = NORMAL`, a
 * 64 MiB page cache and a 256 MiB memory map (`synchronous`, `cacheSizeKiB`,
 * `mmapSizeBytes`): with a million users, SQLite's defaults cost a session
 * read three to four `read()` calls, these none; and a write no longer waits
 * for an fsync (`synchronous = FULL` blocked the event loop 58–121 ms per
 * write there). The trade-off: with `NORMAL` the file stays consistent and an
 * application crash loses nothing, but a power loss or operating-system crash
 * may undo the commits of the moments before it; pass `synchronous: 'full'`
 * where every acknowledged write must survive a power cut. Call `migrate()` once at start-up; `close()` closes the file (a later
 * call opens it again).
 *
 * Methods behave as described for `createSqlAdapter` (Kysely, too, loads only
 * once an adapter is created).
 *
 * A session row read before is answered from memory until a write could have changed it
 * (`sessionReadCache`: at once for writes through this adapter, within 1 ms for other connections).
 *
 * @throws TypeError at creation for a malformed `tablePrefix`, a `cacheSizeKiB` or `mmapSizeBytes` that is
 * not a whole number of 0 or more, a `synchronous` other than `'normal'` or `'full'`, or a malformed
 * `sessionReadCache`.
 * @throws Error with `code: 'MISSING_DEPENDENCY'` (from the first call) when
 * better-sqlite3 cannot be loaded.
 * @throws Error with `code: 'STORAGE_UNAVAILABLE'` (from any call) when the
 * file cannot be opened or written: a missing or read-only folder, a
 * read-only file, a file that is not a database, a full disk or a lock held
 * too long. The message names the absolute path and the fix; `cause` is
 * better-sqlite3's error (its `code`, e.g. `SQLITE_READONLY`).
 * @example
 * ```ts
 * import { createAuth, createSqliteAdapter } from '@framework/auth';
 *
 * const adapter = createSqliteAdapter({ filename: '.data/auth.db' });
 * // Or, where a commit must survive a power loss: { filename: '.data/auth.db', synchronous: 'full' }
 * await adapter.migrate();
 * const auth = createAuth({ ...config, adapter });
 * ```
 */
export function createSqliteAdapter(options: SqliteAdapterOptions): StorageAdapter {
  const { filename } = options;
  const cacheKiB = sizeOption('cacheSizeKiB', options.cacheSizeKiB, SQLITE_CACHE_SIZE_KIB);
  const mmapBytes = sizeOption('mmapSizeBytes', options.mmapSizeBytes, SQLITE_MMAP_SIZE_BYTES);
  const synchronous = options.synchronous ?? 'normal';
  if (!Object.hasOwn(SYNCHRONOUS, synchronous))
    throw new TypeError("createSqliteAdapter: synchronous must be 'normal' or 'full'");
  const readCache = readCacheOption(options.sessionReadCache);
  /** The file's absolute path once known, for error messages. */
  let file = filename;
  return lazySqlStore({
    dialect: 'sqlite',
    tablePrefix: options.tablePrefix,
    explainError: (error) => (IN_MEMORY.has(filename) ? error : explainSqliteError(error, file)),
    async open() {
      const { default: Database } = await importOptional('better-sqlite3', 'createSqliteAdapter', () =>
        importPackage<{ default: typeof import('better-sqlite3') }>('better-sqlite3'),
      );
      const { Kysely, SqliteDialect } = await import('./kysely-runtime.js');
      if (!IN_MEMORY.has(filename)) {
        const [{ mkdir }, { dirname, resolve }] = await Promise.all([import('node:fs/promises'), import('node:path')]);
        file = resolve(filename);
        await mkdir(dirname(file), { recursive: true });
      }
      const database = new Database(filename);
      database.pragma('journal_mode = WAL');
      database.pragma('foreign_keys = ON');
      // After journal_mode: NORMAL is safe (consistent after a power loss) only in WAL mode.
      database.pragma(`synchronous = ${SYNCHRONOUS[synchronous]}`);
      database.pragma(`cache_size = -${cacheKiB}`);
      database.pragma(`mmap_size = ${mmapBytes}`);
      // Checkpoints run in a worker thread (see sqlite-checkpointer.ts), none on this connection while it runs.
      // node:worker_threads loads only here, for a file (not for ':memory:', nor with the module on other runtimes).
      const checkpointer = IN_MEMORY.has(filename)
        ? undefined
        : startCheckpointer(
            {
              file,
              synchronous: SYNCHRONOUS[synchronous],
              onFailure: () => {
                if (database.open) database.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
              },
            },
            (await import('node:worker_threads')).Worker,
          );
      if (checkpointer) database.pragma('wal_autocheckpoint = 0');
      // Kysely's CREATE, ALTER and DROP statements are counted: a schema change changes no row, so
      // total_changes() misses it, yet it changes what the session read returns.
      const counted = countingDatabase(database);
      const db = new Kysely<any>({ dialect: new SqliteDialect({ database: counted.database }) });
      return {
        db,
        // Kysely closes the file only if it ran a query; the session read uses the handle directly, so close it too.
        close: async () => {
          await db.destroy();
          await checkpointer?.stop();
          if (database.open) database.close();
        },
        // better-sqlite3 is synchronous: a prepared statement read once per session read, no per-call prepare.
        // Raw mode (arrays, named from the statement's columns, taken again after a schema change: see
        // sqlite-session-statement.ts) skips better-sqlite3's per-row object building, about a quarter of the
        // statement's time.
        prepareRead(sql) {
          const reader = namedRowReader(database, sql, counted.schemaStatements);
          let readRow: (params: readonly unknown[]) => Record<string, unknown> | undefined;
          if (!readCache) {
            // No cache polls for other connections' commits: poll here, at most every 1 ms, for their schema changes.
            let polledAt = Number.NEGATIVE_INFINITY;
            readRow = (params) => {
              const at = performance.now();
              if (at - polledAt >= 1) {
                polledAt = at;
                reader.versions.get();
              }
              return reader.read(params);
            };
          } else {
            const totalChanges = database.prepare('SELECT total_changes()').raw(true);
            readRow = cachedRowRead(
              reader.read,
              {
                changes: () => (totalChanges.get() as number[])[0]! + counted.schemaStatements(),
                dataVersion: reader.versions,
                inTransaction: () => database.inTransaction,
              },
              readCache,
            );
          }
          return synchronousRead(readRow);
        },
      };
    },
  });
}

/** A synchronous row read as a {@link PreparedRead}: decoded in the same call, a failure passed to `onError`. */
function synchronousRead(readRow: (params: readonly unknown[]) => Record<string, unknown> | undefined): PreparedRead {
  return (params, decode, onError) => {
    try {
      return decode(readRow(params), params);
    } catch (error) {
      if (onError) onError(error);
      throw error;
    }
  };
}
