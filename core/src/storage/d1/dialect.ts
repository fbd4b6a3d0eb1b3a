/**
 * A small Kysely dialect over a D1 binding: SQLite's query compiler, adapter
 * and introspector, with a driver that sends each query through
 * `prepare().bind().all()` and each transaction as one `batch()`.
 * @module
 */
import {
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
} from 'kysely';
import type { D1DatabaseLike } from './binding.js';
import { D1Connection } from './connection.js';

class D1Driver implements Driver {
  constructor(private readonly binding: D1DatabaseLike) {}
  async init(): Promise<void> {}
  /** A fresh connection each time: D1 is stateless, and a transaction's batch belongs to its connection. */
  async acquireConnection(): Promise<DatabaseConnection> {
    return new D1Connection(this.binding);
  }
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as D1Connection).begin();
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as D1Connection).commit();
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as D1Connection).rollback();
  }
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}

/**
 * A Kysely dialect for a Cloudflare D1 binding. Transactions become one
 * atomic `batch()` of their writes (reads inside them are refused); savepoints
 * and streaming are not supported.
 *
 * @example
 * ```ts
 * import { Kysely } from 'kysely';
 * const db = new Kysely<Database>({ dialect: new D1Dialect({ binding: env.DB }) });
 * ```
 */
export class D1Dialect implements Dialect {
  constructor(private readonly config: { binding: D1DatabaseLike }) {}
  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }
  createDriver(): Driver {
    return new D1Driver(this.config.binding);
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
