/**
 * A Kysely handle over a SQL adapter's own connection, usable before that connection is opened: each query
 * borrows a connection from the adapter's current Kysely (opened on first use, reopened after `close()`).
 * Plugins build their default storages on it (`StorageAdapter.kysely`).
 * @module
 * @internal
 */
import { CompiledQuery, Kysely, type DatabaseConnection, type Driver, type TransactionSettings } from 'kysely';
import type { SqlDialectName } from './dialect.js';
import { kyselyDialect } from './kysely-dialect.js';

const BEGIN: Record<SqlDialectName, string> = { sqlite: 'begin', postgres: 'begin', mysql: 'start transaction' };

/** A borrowed connection and the function that hands it back. */
const releases = new WeakMap<DatabaseConnection, () => void>();

function deferredDriver(open: () => Promise<Kysely<any>>, begin: string): Driver {
  const raw = (connection: DatabaseConnection, text: string) =>
    connection.executeQuery(CompiledQuery.raw(text)).then(() => undefined);
  return {
    init: async () => {},
    async acquireConnection() {
      const db = await open();
      return new Promise<DatabaseConnection>((resolve, reject) => {
        let handBack!: () => void;
        const returned = new Promise<void>((done) => (handBack = done));
        db.getExecutor()
          .provideConnection(async (connection) => {
            releases.set(connection, handBack);
            resolve(connection);
            await returned;
          })
          .catch(reject);
      });
    },
    async releaseConnection(connection) {
      releases.get(connection)?.();
      releases.delete(connection);
    },
    async beginTransaction(connection, settings: TransactionSettings) {
      if (settings.isolationLevel !== undefined || (settings as { accessMode?: unknown }).accessMode !== undefined)
        throw new TypeError('adapter.kysely: transaction settings are not supported; use the default isolation');
      await raw(connection, begin);
    },
    commitTransaction: (connection) => raw(connection, 'commit'),
    rollbackTransaction: (connection) => raw(connection, 'rollback'),
    // The adapter owns the connection: destroying this handle leaves it open.
    destroy: async () => {},
  };
}

/**
 * A Kysely instance for `dialect` whose queries run on the Kysely `open()` resolves to (called for each
 * connection borrowed, so it should cache). `destroy()` on it is a no-op.
 * @throws TypeError for an unknown dialect.
 */
export function deferredKysely(dialect: SqlDialectName, open: () => Promise<Kysely<any>>): Kysely<any> {
  const begin = BEGIN[dialect];
  if (!begin) throw new TypeError(`Unknown SQL dialect ${JSON.stringify(dialect)}`);
  return new Kysely<any>({ dialect: kyselyDialect(dialect, () => deferredDriver(open, begin)) });
}
