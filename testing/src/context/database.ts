/**
 * The fresh database of a test context: one private in-memory SQLite
 * (better-sqlite3), shared by the kit's storage adapter (migrated) and a
 * Kysely query builder for the app's own tables.
 * @module
 */
import type { Kysely } from 'kysely';
import { createSqlAdapter, type StorageAdapter } from '@framework/auth';

/**
 * The database handed to `seed(db)` and to an app factory.
 * @example
 * ```ts
 * seed: async (db: TestDatabase) => {
 *   await db.adapter.createUser({ id: 'u1' });
 *   await db.kysely.schema.createTable('posts').addColumn('id', 'integer').execute();
 * }
 * ```
 */
export interface TestDatabase {
  /** The kit's storage (users, accounts, sessions, …) with its migrations applied. */
  readonly adapter: StorageAdapter;
  /** A Kysely instance over the same in-memory database, for the app's own tables. */
  readonly kysely: Kysely<any>;
}

/** A {@link TestDatabase} plus the means to close it. */
export interface OwnedTestDatabase extends TestDatabase {
  close(): Promise<void>;
}

/**
 * Opens a private in-memory SQLite database and applies the kit's
 * migrations. better-sqlite3 and kysely are imported on the first call, so
 * importing `@framework/testing` never loads them.
 *
 * @example
 * ```ts
 * const db = await openTestDatabase();
 * await db.adapter.createUser({ email: 'ada@example.com' });
 * await db.close();
 * ```
 */
export async function openTestDatabase(): Promise<OwnedTestDatabase> {
  const [{ default: Database }, { Kysely, SqliteDialect }] = await Promise.all([
    import('better-sqlite3'),
    import('kysely'),
  ]);
  const sqlite = new Database(':memory:');
  sqlite.pragma('foreign_keys = ON');
  const kysely = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
  const adapter = createSqlAdapter({ db: kysely, dialect: 'sqlite' });
  await adapter.migrate();
  return { adapter, kysely, close: () => kysely.destroy() };
}
