/**
 * `createSqlUsernameStorage`: usernames in one SQL table whose primary key is the folded name.
 * @module
 */
import type { Kysely } from 'kysely';
import { createTable, pluginSql, type PluginSql, type SqlDialectName } from '../../../plugin-kit.js';
import type { UsernameRecord, UsernameStorage } from './types.js';

/** Options of {@link createSqlUsernameStorage}. */
export interface SqlUsernameStorageOptions {
  /** Prefix of the table names (letters, digits, `_`): `<prefix>_names`, `<prefix>_migrations`. Default `username`. */
  tablePrefix?: string;
  /** Which SQL `db` speaks. Default: detected from the Kysely dialect. */
  dialect?: SqlDialectName;
}

interface Row {
  username: string;
  display_username: string;
  user_id: string | null;
  email: string | null;
  expires_at: number | string | null;
}

function migrations(s: PluginSql, table: string) {
  const { key, int64 } = s.traits;
  return {
    '0001_username_names': {
      async up(db: Kysely<any>) {
        await createTable(db, table, s.traits)
          .addColumn('username', key, (c) => c.primaryKey())
          .addColumn('display_username', key, (c) => c.notNull())
          .addColumn('user_id', key)
          .addColumn('email', key)
          .addColumn('expires_at', int64)
          .addColumn('created_at', int64, (c) => c.notNull())
          .execute();
        await db.schema.createIndex(`${table}_user_id_idx`).on(table).column('user_id').execute();
        await db.schema.createIndex(`${table}_email_idx`).on(table).column('email').execute();
      },
    },
  };
}

/**
 * Usernames in the table `<tablePrefix>_names` (folded name as primary key: one holder per name on every
 * dialect; the name as typed; the user; a sign-up's reservation address and expiry in integer milliseconds), for
 * SQLite (and D1), PostgreSQL and MySQL/MariaDB through your Kysely instance (MySQL: binary collation, so the key
 * compares exactly). `username()` builds it on the auth adapter's database by default; `auth.migrate()` runs
 * `migrate()` (idempotent). The caller owns `db`.
 *
 * @throws TypeError at creation for a malformed `tablePrefix` or an unknown or undetectable dialect.
 * @example
 * ```ts
 * import { createSqlUsernameStorage, username } from '@framework/auth/plugins/username';
 * const plugin = username({ storage: createSqlUsernameStorage(db, { tablePrefix: 'handles' }) });
 * ```
 */
export function createSqlUsernameStorage(db: Kysely<any>, options: SqlUsernameStorageOptions = {}): UsernameStorage {
  const s = pluginSql(db, options, 'username', 'createSqlUsernameStorage');
  const { q, traits } = s;
  const table = `${s.prefix}_names`;
  const toRecord = (row: Row | undefined): UsernameRecord | null =>
    row?.user_id ? { username: row.username, displayUsername: row.display_username, userId: row.user_id } : null;
  const columns = ['username', 'display_username', 'user_id', 'email', 'expires_at'] as const;
  const read = (username: string) =>
    q.selectFrom(table).select(columns).where('username', '=', username).$castTo<Row>().executeTakeFirst();

  /** Inserts `row`; false on a primary-key violation. */
  async function insert(row: Record<string, unknown>): Promise<boolean> {
    try {
      await q
        .insertInto(table)
        .values({ ...row, created_at: Date.now() })
        .execute();
      return true;
    } catch (error) {
      if (traits.uniqueViolation(error) !== null) return false;
      throw error;
    }
  }

  /** Drops a reservation of `username` that expired at `now`. */
  const dropExpired = (username: string, now: Date) =>
    q
      .deleteFrom(table)
      .where('username', '=', username)
      .where('user_id', 'is', null)
      .where('expires_at', '<=', now.getTime())
      .execute();

  /** Inserts `row`, taking over an expired reservation of its name once. */
  async function take(row: Record<string, unknown> & { username: string }, now: Date): Promise<boolean> {
    if (await insert(row)) return true;
    await dropExpired(row.username, now);
    return insert(row);
  }

  const releaseOthers = (userId: string, username: string) =>
    q.deleteFrom(table).where('user_id', '=', userId).where('username', '<>', username).execute();

  return {
    migrate: () => s.migrate(migrations(s, table)),
    async find(username) {
      return toRecord(await read(username));
    },
    async lookup(username) {
      const row = await read(username);
      if (!row) return null;
      return row.user_id !== null ? { userId: row.user_id } : row.email !== null ? { email: row.email } : null;
    },
    async findByUser(userId) {
      const row = await q
        .selectFrom(table)
        .select(columns)
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .$castTo<Row>()
        .executeTakeFirst();
      return toRecord(row);
    },
    async isFree(username, now, userId) {
      const row = await read(username);
      if (!row) return true;
      if (row.user_id === null) return row.expires_at === null || Number(row.expires_at) <= now.getTime();
      return row.user_id === userId;
    },
    async assign({ username, displayUsername, userId }, now) {
      const row = { username, display_username: displayUsername, user_id: userId, email: null, expires_at: null };
      if (!(await take(row, now))) {
        const updated = await q
          .updateTable(table)
          .set({ display_username: displayUsername })
          .where('username', '=', username)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0 && (await read(username))?.user_id !== userId) return false;
      }
      await releaseOthers(userId, username);
      return true;
    },
    async reserve({ username, displayUsername, email, expiresAt }, now) {
      const row = {
        username,
        display_username: displayUsername,
        user_id: null,
        email,
        expires_at: expiresAt.getTime(),
      };
      if (await take(row, now)) return true;
      // The same sign-up again (its first try failed after the name was held): the address renews its own hold.
      const renewed = await q
        .updateTable(table)
        .set({ display_username: displayUsername, expires_at: expiresAt.getTime() })
        .where('username', '=', username)
        .where('user_id', 'is', null)
        .where('email', '=', email)
        .executeTakeFirst();
      return Number(renewed.numUpdatedRows) > 0 || (await read(username))?.email === email;
    },
    async bindReservation(email, userId) {
      const row = await q
        .selectFrom(table)
        .select(columns)
        .where('email', '=', email)
        .where('user_id', 'is', null)
        .orderBy('created_at', 'desc')
        .$castTo<Row>()
        .executeTakeFirst();
      if (!row) return null;
      const bound = await q
        .updateTable(table)
        .set({ user_id: userId, email: null, expires_at: null })
        .where('username', '=', row.username)
        .where('user_id', 'is', null)
        .where('email', '=', email)
        .executeTakeFirst();
      if (Number(bound.numUpdatedRows) === 0) return null;
      await releaseOthers(userId, row.username);
      return { username: row.username, displayUsername: row.display_username, userId };
    },
    async dropReservation(username, email) {
      await q
        .deleteFrom(table)
        .where('username', '=', username)
        .where('user_id', 'is', null)
        .where('email', '=', email)
        .execute();
    },
    async removeUser(userId) {
      await q.deleteFrom(table).where('user_id', '=', userId).execute();
    },
  };
}
