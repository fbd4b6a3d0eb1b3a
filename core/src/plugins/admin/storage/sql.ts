/**
 * `createSqlAdminStorage`: bans in one SQL table, over a Kysely instance you own (SQLite, PostgreSQL or MySQL/MariaDB).
 * @module
 */
import type { Kysely, Migration } from 'kysely';
import { createTable, upsert, type DialectTraits, type SqlDialectName } from '../../../storage/sql/dialect.js';
import { pluginSql } from '../../plugin-sql.js';
import type { AdminStorage, BanRecord } from '../types.js';

/** Options of {@link createSqlAdminStorage}. */
export interface SqlAdminStorageOptions {
  /** Prefix of the table names (letters, digits, `_`). Default `admin`: tables `admin_bans`, `admin_migrations`. */
  tablePrefix?: string;
  /** Which SQL `db` speaks. Default: detected from the Kysely dialect. */
  dialect?: SqlDialectName;
}

type Int = number | string;
interface BanRow {
  user_id: string;
  reason: string | null;
  expires_at: Int | null;
  banned_by: string;
  created_at: Int;
}

const toBan = (r: BanRow): BanRecord => ({
  userId: r.user_id,
  reason: r.reason,
  expiresAt: r.expires_at === null ? null : new Date(Number(r.expires_at)),
  bannedBy: r.banned_by,
  createdAt: new Date(Number(r.created_at)),
});

function initial(bans: string, traits: DialectTraits): Migration {
  const { int64, key } = traits;
  return {
    async up(db: Kysely<any>) {
      await createTable(db, bans, traits)
        .addColumn('user_id', key, (c) => c.primaryKey())
        .addColumn('reason', 'text')
        .addColumn('expires_at', int64)
        .addColumn('banned_by', 'text', (c) => c.notNull())
        .addColumn('created_at', int64, (c) => c.notNull())
        .execute();
    },
  };
}

/**
 * Creates an admin storage over one SQL table (`<tablePrefix>_bans`), for SQLite, MySQL/MariaDB or PostgreSQL through your Kysely
 * instance. `migrate()` (or `auth.migrate()`, which runs it) creates it; idempotent. Times are integer
 * milliseconds (`bigint` in PostgreSQL). The caller owns `db` and destroys it.
 *
 * @throws TypeError at creation for a malformed `tablePrefix` or an unknown or undetectable dialect.
 * @example
 * ```ts
 * import { Kysely, PostgresDialect } from 'kysely';
 * import pg from 'pg';
 * import { admin, createSqlAdminStorage } from '@framework/auth/plugins/admin';
 *
 * const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString }) }) });
 * const auth = createAuth({ ...config, plugins: [admin({ storage: createSqlAdminStorage(db) })] });
 * await auth.migrate();
 * ```
 */
export function createSqlAdminStorage(db: Kysely<any>, options: SqlAdminStorageOptions = {}): AdminStorage {
  const { q, prefix, traits, migrate } = pluginSql(db, options, 'admin', 'createSqlAdminStorage');
  const bans = `${prefix}_bans`;

  return {
    migrate: () => migrate({ '0001_bans': initial(bans, traits) }),
    async getBan(userId) {
      const row = await q.selectFrom(bans).selectAll().where('user_id', '=', userId).executeTakeFirst();
      return row ? toBan(row as BanRow) : null;
    },
    async getBans(userIds) {
      if (userIds.length === 0) return [];
      const rows = await q
        .selectFrom(bans)
        .selectAll()
        .where('user_id', 'in', [...userIds])
        .execute();
      return (rows as BanRow[]).map(toBan);
    },
    async setBan(ban) {
      const row: BanRow = {
        user_id: ban.userId,
        reason: ban.reason,
        expires_at: ban.expiresAt ? ban.expiresAt.getTime() : null,
        banned_by: ban.bannedBy,
        created_at: ban.createdAt.getTime(),
      };
      const { user_id: _id, ...rest } = row;
      await upsert(q, traits, bans, { ...row }, ['user_id'], rest).execute();
    },
    async removeBan(userId) {
      const result = await q.deleteFrom(bans).where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
