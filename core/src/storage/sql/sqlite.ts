/**
 * `createSqliteAdapter`: the embedded default, a SQLite file through better-sqlite3.
 * @module
 */
import type { StorageAdapter } from '../types.js';
import { explainSqliteError } from './explain-errors.js';
import { importOptional, importPackage } from './optional-import.js';
import { lazySqlStore } from './lazy-store.js';

/** Options of {@link createSqliteAdapter}. */
export interface SqliteAdapterOptions {
  /**
   * Path of the database file, e.g. `'.data/auth.db'` (relative to the
   * working directory), or `':memory:'` for a private in-memory database.
   */
  filename: string;
  /** Prefix of every table name. Default `'auth_'`; see `SqlAdapterOptions.tablePrefix`. */
  tablePrefix?: string;
}

const IN_MEMORY = new Set([':memory:', '']);

/**
 * Creates a storage adapter over a SQLite file, through better-sqlite3 (an
 * optional peer dependency: `npm install better-sqlite3`).
 *
 * Nothing is opened until the first call. Then better-sqlite3 is imported,
 * the file's parent folder is created if missing, and the database is opened
 * with `journal_mode = WAL` and `foreign_keys = ON`. Call `migrate()` once at
 * start-up; `close()` closes the file (a later call opens it again).
 *
 * Methods behave as described for `createSqlAdapter` (Kysely, too, loads only
 * once an adapter is created).
 *
 * @throws TypeError at creation for a malformed `tablePrefix`.
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
 * await adapter.migrate();
 * const auth = createAuth({ ...config, adapter });
 * ```
 */
export function createSqliteAdapter(options: SqliteAdapterOptions): StorageAdapter {
  const { filename } = options;
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
      const { Kysely, SqliteDialect } = await import('kysely');
      if (!IN_MEMORY.has(filename)) {
        const [{ mkdir }, { dirname, resolve }] = await Promise.all([import('node:fs/promises'), import('node:path')]);
        file = resolve(filename);
        await mkdir(dirname(file), { recursive: true });
      }
      const database = new Database(filename);
      database.pragma('journal_mode = WAL');
      database.pragma('foreign_keys = ON');
      const db = new Kysely<any>({ dialect: new SqliteDialect({ database }) });
      return {
        db,
        // Kysely closes the file only if it ran a query; the session read uses the handle directly, so close it too.
        close: async () => {
          await db.destroy();
          if (database.open) database.close();
        },
        // better-sqlite3 is synchronous: a prepared statement read once per session read, no per-call prepare.
        // Raw mode (arrays, named here from the statement's columns) skips better-sqlite3's per-row object
        // building, about a quarter of the statement's time.
        prepareRead(sql) {
          // Prepared on first use: the tables may not exist before migrate().
          let statement: { get(...params: unknown[]): unknown[] | undefined } | undefined;
          let names: string[] = [];
          return (params) => {
            if (!statement) {
              const prepared = database.prepare(sql).raw(true);
              names = prepared.columns().map((column) => column.name);
              statement = prepared as unknown as { get(...params: unknown[]): unknown[] | undefined };
            }
            const row = statement.get(...params);
            if (!row) return undefined;
            const named: Record<string, unknown> = {};
            for (let i = 0; i < names.length; i++) named[names[i]!] = row[i];
            return named;
          };
        },
      };
    },
  });
}
