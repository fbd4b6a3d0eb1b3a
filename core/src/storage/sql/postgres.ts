/**
 * `createPostgresAdapter`: PostgreSQL through node-postgres (`pg`).
 * @module
 */
import { createHash } from 'node:crypto';
import type { PostgresPool } from 'kysely';
import type { StorageAdapter } from '../types.js';
import { explainPostgresError, postgresTarget, type PostgresTarget } from './explain-errors.js';
import { importOptional, importPackage } from './optional-import.js';
import { lazySqlStore } from './lazy-store.js';
import type { PreparedRead } from './store.js';

/**
 * What the adapter uses of a `pg.Pool` (a `pg.Pool` fits it). Structural, so the kit's declarations need no
 * `@types/pg` in apps that do not use PostgreSQL.
 */
export interface PgPoolLike extends PostgresPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/** Options of {@link createPostgresAdapter}. Give `connectionString` or `pool`, not both. */
export interface PostgresAdapterOptions {
  /**
   * e.g. `'postgres://user:password@127.0.0.1:5432/app'`. When neither this
   * nor `pool` is given, `pg` reads the `PG*` environment variables.
   */
  connectionString?: string;
  /** A `pg.Pool` you own: the adapter uses it and never ends it. */
  pool?: PgPoolLike;
  /** Prefix of every table name. Default `'auth_'`; see `SqlAdapterOptions.tablePrefix`. */
  tablePrefix?: string;
}

/**
 * Creates a storage adapter over PostgreSQL. With `connectionString` (or
 * neither option), the adapter imports `pg` (an optional peer dependency:
 * `npm install pg`) on its first call and creates its own pool, which
 * `close()` ends. With `pool`, `pg` is not imported at all and `close()`
 * leaves the pool open. Bundlers do not follow the import of `pg`: a bundled
 * app keeps `pg` in `node_modules` beside the bundle, or passes `pool`.
 *
 * Tables go to the first schema of the connection's `search_path`. Call
 * `migrate()` once at start-up; it is idempotent and safe to run from several
 * processes at once. Methods behave as described for `createSqlAdapter`.
 *
 * @throws TypeError at creation when both `connectionString` and `pool` are
 * given, or for a malformed `tablePrefix`.
 * @throws Error with `code: 'MISSING_DEPENDENCY'` (from the first call) when
 * `pg` is needed and cannot be loaded.
 * @throws Error with `code: 'STORAGE_UNAVAILABLE'` (from any call) when the
 * server cannot be reached or refuses the connection: refused, unknown host,
 * no answer, wrong credentials, missing database, no free slot. The message
 * names `host:port`, the database and the user (never the password) and the
 * fix; `cause` is `pg`'s error (its `code`: a Node socket code or the
 * SQLSTATE, e.g. `3D000`).
 * @example
 * ```ts
 * import { createAuth, createPostgresAdapter } from '@framework/auth';
 *
 * const adapter = createPostgresAdapter({ connectionString: process.env.DATABASE_URL });
 * await adapter.migrate();
 * const auth = createAuth({ ...config, adapter });
 * ```
 */
export function createPostgresAdapter(options: PostgresAdapterOptions = {}): StorageAdapter {
  const { connectionString, pool } = options;
  if (connectionString !== undefined && pool !== undefined) {
    throw new TypeError('createPostgresAdapter: pass either connectionString or pool, not both');
  }
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
  /** Where the pool connects: `pg.Pool#options` for a pool you pass, else `connectionString` or `PG*`. */
  const target = (): PostgresTarget => {
    const own = (pool as { options?: Partial<PostgresTarget> & { connectionString?: string } } | undefined)?.options;
    const found = postgresTarget(own?.connectionString ?? connectionString, env);
    if (own?.host) found.host = own.host;
    if (own?.port) found.port = own.port;
    if (own?.database) found.database = own.database;
    if (own?.user) found.user = own.user;
    return found;
  };
  return lazySqlStore({
    dialect: 'postgres',
    tablePrefix: options.tablePrefix,
    explainError: (error) => explainPostgresError(error, target()),
    async open() {
      const { Kysely, PostgresDialect } = await import('./kysely-runtime.js');
      if (pool)
        return {
          db: new Kysely<any>({ dialect: new PostgresDialect({ pool }) }),
          close: async () => {},
          prepareRead: namedStatement(pool),
        };
      const pg = await importOptional('pg', 'createPostgresAdapter', () => importPackage<typeof import('pg')>('pg'));
      const own = new pg.default.Pool({ connectionString });
      const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: own }) });
      return { db, close: () => db.destroy(), prepareRead: namedStatement(own) };
    },
  });
}

/**
 * A PostgreSQL named prepared statement (the extended protocol's Parse once
 * per connection, then Bind/Execute): `pg` prepares it on a connection the
 * first time that connection runs it, and reuses it after.
 */
function namedStatement(pool: Pick<PgPoolLike, 'query'>): (sql: string) => PreparedRead {
  return (sql) => {
    const name = `framework_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
    // One `then` on the driver's promise decodes the row and handles a failure: the session read of every
    // request waits on no promise of its own. Always a native promise (a pool's own thenable is adopted), as the
    // store tells a pending read by `instanceof Promise`.
    return (params, decode, onError) => {
      try {
        return Promise.resolve(pool.query({ name, text: sql, values: [...params] })).then(
          (result) => decode(result.rows[0] as Record<string, unknown> | undefined, params),
          onError,
        );
      } catch (error) {
        return Promise.reject(error).then(undefined, onError);
      }
    };
  };
}
