/**
 * `createSqlAnonymousStorage`: guest marks in one SQL table, over a Kysely instance you own.
 * @module
 */
import type { Kysely } from 'kysely';
import { createTable, pluginSql, type PluginSql, type SqlDialectName } from '../../../plugin-kit.js';
import type { AnonymousStorage } from './types.js';

/** Options of {@link createSqlAnonymousStorage}. */
export interface SqlAnonymousStorageOptions {
  /** Prefix of the table names (letters, digits, `_`): `<prefix>_users`, `<prefix>_migrations`. Default `anonymous`. */
  tablePrefix?: string;
  /** Which SQL `db` speaks. Default: detected from the Kysely dialect. */
  dialect?: SqlDialectName;
}

function migrations(s: PluginSql, table: string) {
  const { key, int64 } = s.traits;
  return {
    '0001_anonymous_users': {
      async up(db: Kysely<any>) {
        await createTable(db, table, s.traits)
          .addColumn('user_id', key, (c) => c.primaryKey())
          .addColumn('created_at', int64, (c) => c.notNull())
          .execute();
      },
    },
  };
}

/**
 * Guest marks in the table `<tablePrefix>_users` (user id, creation time in integer milliseconds), for SQLite
 * (and D1), PostgreSQL and MySQL/MariaDB through your Kysely instance. `anonymous()` builds it on the auth
 * adapter's own database when `storage` is not given; `auth.migrate()` runs its migrations (idempotent). The
 * caller owns `db`.
 *
 * @throws TypeError at creation for a malformed `tablePrefix` or an unknown or undetectable dialect.
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * import { Kysely, SqliteDialect } from 'kysely';
 * import { anonymous, createSqlAnonymousStorage } from '@framework/auth/plugins/anonymous';
 *
 * const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database('.data/app.db') }) });
 * const plugin = anonymous({ storage: createSqlAnonymousStorage(db) });
 * ```
 */
export function createSqlAnonymousStorage(db: Kysely<any>, options: SqlAnonymousStorageOptions = {}): AnonymousStorage {
  const s = pluginSql(db, options, 'anonymous', 'createSqlAnonymousStorage');
  const { q } = s;
  const table = `${s.prefix}_users`;
  return {
    migrate: () => s.migrate(migrations(s, table)),
    async mark(userId, createdAt) {
      const taken = await q.selectFrom(table).select('user_id').where('user_id', '=', userId).executeTakeFirst();
      if (taken) return;
      try {
        await q.insertInto(table).values({ user_id: userId, created_at: createdAt.getTime() }).execute();
      } catch (error) {
        // A concurrent mark of the same user won the insert: the user is marked either way.
        if (!(await q.selectFrom(table).select('user_id').where('user_id', '=', userId).executeTakeFirst()))
          throw error;
      }
    },
    async isAnonymous(userId) {
      return !!(await q.selectFrom(table).select('user_id').where('user_id', '=', userId).executeTakeFirst());
    },
    async remove(userId) {
      await q.deleteFrom(table).where('user_id', '=', userId).execute();
    },
  };
}
