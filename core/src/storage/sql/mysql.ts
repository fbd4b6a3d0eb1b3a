/**
 * `createMysqlAdapter`: MySQL (≥ 8.0) and MariaDB (≥ 10.5) through `mysql2`.
 * @module
 */
import type { MysqlPool } from 'kysely';
import type { StorageAdapter } from '../types.js';
import { explainMysqlError, mysqlTarget } from './explain-mysql-errors.js';
import { importOptional, importPackage } from './optional-import.js';
import { lazySqlStore } from './lazy-store.js';

/**
 * What the adapter uses of a pool: a callback-style `mysql2` pool (`mysql.createPool(…)` from `'mysql2'`, not
 * `'mysql2/promise'`) fits it. Structural, so the kit's declarations need no `mysql2` in apps that do not use it.
 */
export type MysqlPoolLike = MysqlPool;

/**
 * Connection options passed to `mysql2`'s `createPool` as they are (a subset is typed here; any other
 * `mysql2` pool option is accepted).
 */
export interface MysqlPoolConfig {
  /** Default `'localhost'`. */
  host?: string;
  /** Default 3306. */
  port?: number;
  user?: string;
  password?: string;
  /** The database (schema) holding the tables. */
  database?: string;
  /** Most connections the pool opens. `mysql2`'s default: 10. */
  connectionLimit?: number;
  [option: string]: unknown;
}

/** Options of {@link createMysqlAdapter}. Give one of `url`, `pool` or `config`. */
export interface MysqlAdapterOptions {
  /** e.g. `'mysql://user:password@127.0.0.1:3306/app'`. */
  url?: string;
  /** A `mysql2` pool you own: the adapter uses it and never ends it. */
  pool?: MysqlPoolLike;
  /** `mysql2` pool options; the adapter creates the pool and `close()` ends it. */
  config?: MysqlPoolConfig;
  /** Prefix of every table name. Default `'auth_'`; see `SqlAdapterOptions.tablePrefix`. */
  tablePrefix?: string;
}

/**
 * Creates a storage adapter over MySQL or MariaDB. With `url` or `config`, the adapter imports `mysql2` (an
 * optional peer dependency: `npm install mysql2`) on its first call and creates its own pool (charset
 * `utf8mb4`), which `close()` ends. With `pool`, `mysql2` is not imported and `close()` leaves the pool open.
 *
 * Tables are InnoDB, `utf8mb4` with the binary collation `utf8mb4_bin`: ids, emails and token hashes compare
 * case-sensitively, byte for byte, as on SQLite and PostgreSQL. Key columns (ids, normalized emails,
 * provider account ids, verification identifiers and token hashes, credential ids) are `varchar(255)`, as
 * MySQL indexes no `TEXT` without a length; longer values are refused by the server (strict mode). Times are
 * `bigint` milliseconds. Without `RETURNING`, updates read the row back in the same transaction, and a
 * verification token is locked (`SELECT … FOR UPDATE`) then deleted, so only one caller gets it.
 * `listUsers({ search })` matches emails and names by prefix, through indexes.
 *
 * Call `migrate()` once at start-up; it is idempotent and serialized across processes by a lock row. MySQL
 * commits DDL implicitly: a migration that fails half-way is not rolled back.
 *
 * @throws TypeError at creation when not exactly one of `url`, `pool` and `config` is given, or for a
 * malformed `tablePrefix`.
 * @throws Error with `code: 'MISSING_DEPENDENCY'` (from the first call) when `mysql2` is needed and cannot be
 * loaded.
 * @throws Error with `code: 'STORAGE_UNAVAILABLE'` (from any call) when the server cannot be reached or refuses the
 * connection: refused, unknown host, no answer, wrong credentials, missing database, no free connection. The
 * message names `host:port`, the database and the user (never the password) and the fix; `cause` is `mysql2`'s
 * error (its `code`, e.g. `ER_BAD_DB_ERROR`). Other server errors pass through unchanged.
 * @example
 * ```ts
 * import { createAuth, createMysqlAdapter } from '@framework/auth';
 *
 * const adapter = createMysqlAdapter({ url: process.env.DATABASE_URL });
 * await adapter.migrate();
 * const auth = createAuth({ ...config, adapter });
 * ```
 */
export function createMysqlAdapter(options: MysqlAdapterOptions): StorageAdapter {
  const { url, pool, config } = options;
  const given = [url, pool, config].filter((value) => value !== undefined).length;
  if (given !== 1) throw new TypeError('createMysqlAdapter: pass exactly one of url, pool or config');
  /** A pool you pass is described by its `config.connectionConfig` (mysql2's), when it has one. */
  const passed = (pool as { config?: { connectionConfig?: Parameters<typeof mysqlTarget>[0] } } | undefined)?.config;
  const target = mysqlTarget(url ?? config ?? passed?.connectionConfig);
  return lazySqlStore({
    dialect: 'mysql',
    tablePrefix: options.tablePrefix,
    explainError: (error) => explainMysqlError(error, target),
    async open() {
      const { Kysely, MysqlDialect } = await import('./kysely-runtime.js');
      if (pool) return { db: new Kysely<any>({ dialect: new MysqlDialect({ pool }) }), close: async () => {} };
      const mysql = await importOptional('mysql2', 'createMysqlAdapter', () =>
        importPackage<typeof import('mysql2') & { default: typeof import('mysql2') }>('mysql2'),
      );
      const create = mysql.createPool ?? mysql.default.createPool;
      const own =
        url !== undefined ? create({ uri: url, charset: 'utf8mb4' }) : create({ charset: 'utf8mb4', ...config });
      const db = new Kysely<any>({ dialect: new MysqlDialect({ pool: own as unknown as MysqlPool }) });
      return { db, close: () => db.destroy() };
    },
  });
}
