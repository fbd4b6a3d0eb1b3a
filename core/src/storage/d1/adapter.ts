/**
 * `createD1Adapter`: the storage adapter over a Cloudflare D1 binding.
 * @module
 */
import { lazySqlStore } from '../sql/lazy-store.js';
import type { StorageAdapter } from '../types.js';
import type { D1DatabaseLike } from './binding.js';

/** Options of {@link createD1Adapter}. */
export interface D1AdapterOptions {
  /** The D1 binding, e.g. `env.DB` in a Worker or `await mf.getD1Database('DB')` with Miniflare. */
  binding: D1DatabaseLike;
  /** Prefix of every table name. Default `'auth_'`; see `SqlAdapterOptions.tablePrefix`. */
  tablePrefix?: string;
}

/**
 * Creates a storage adapter over a Cloudflare D1 database. It is the SQL
 * adapter (same schema, migrations and behaviour as `createSqliteAdapter`) speaking
 * to D1 through a small Kysely dialect: each query is
 * `prepare().bind().all()`, and the one multi-statement write (deleting a
 * user with their rows) is a single atomic `batch()`.
 *
 * Call `migrate()` once (at deploy, or lazily on a first request); it is
 * idempotent. `close()` does nothing: the runtime owns the binding.
 *
 * @throws TypeError at creation when `binding` is not D1-like or `tablePrefix` is malformed.
 * @example
 * ```ts
 * import { createAuth, createD1Adapter } from '@framework/auth';
 *
 * export default {
 *   async fetch(request: Request, env: { DB: D1Database; AUTH_SECRET: string }) {
 *     const adapter = createD1Adapter({ binding: env.DB });
 *     await adapter.migrate();
 *     const auth = createAuth({ adapter, secret: env.AUTH_SECRET, providers: [] });
 *     return auth.handler(request);
 *   },
 * };
 * ```
 */
export function createD1Adapter(options: D1AdapterOptions): StorageAdapter {
  const { binding } = options;
  if (!binding || typeof binding.prepare !== 'function' || typeof binding.batch !== 'function') {
    throw new TypeError('createD1Adapter: `binding` must be a D1 database binding (with prepare() and batch())');
  }
  return lazySqlStore({
    dialect: 'sqlite',
    tablePrefix: options.tablePrefix,
    async open() {
      const [{ Kysely }, { D1Dialect }] = await Promise.all([
        import('../sql/kysely-runtime.js'),
        import('./dialect.js'),
      ]);
      return { db: new Kysely<any>({ dialect: new D1Dialect({ binding }) }), close: async () => {} };
    },
  });
}
