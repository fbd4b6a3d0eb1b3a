/**
 * `createSqlPhoneNumberStorage`: users' phone numbers in one SQL table, over a Kysely instance you own.
 * @module
 */
import type { Kysely } from 'kysely';
import { createTable, pluginSql, type PluginSql, type SqlDialectName } from '../../../plugin-kit.js';
import type { PhoneNumberRecord, PhoneNumberStorage } from '../types.js';

/** Options of {@link createSqlPhoneNumberStorage}. */
export interface SqlPhoneNumberStorageOptions {
  /** The table's name and the prefix of its migration tables (letters, digits, `_`). Default `phone_numbers`. */
  tablePrefix?: string;
  /** Which SQL `db` speaks. Default: detected from the Kysely dialect. */
  dialect?: SqlDialectName;
}

interface Row {
  user_id: string;
  phone_number: string;
  verified: number | boolean;
  updated_at: number | string;
}

const toRecord = (r: Row): PhoneNumberRecord => ({
  userId: r.user_id,
  phoneNumber: r.phone_number,
  verified: Boolean(r.verified),
  updatedAt: new Date(Number(r.updated_at)),
});

function migrations(s: PluginSql, table: string) {
  const { key, int64, bool } = s.traits;
  return {
    '0001_phone_numbers': {
      async up(db: Kysely<any>) {
        await createTable(db, table, s.traits)
          .addColumn('user_id', key, (c) => c.primaryKey())
          .addColumn('phone_number', key, (c) => c.notNull())
          .addColumn('verified', bool, (c) => c.notNull())
          .addColumn('updated_at', int64, (c) => c.notNull())
          .execute();
        await db.schema.createIndex(`${table}_number_uq`).on(table).column('phone_number').unique().execute();
      },
    },
  };
}

/**
 * Users' phone numbers in the table `<tablePrefix>` (user id, E.164 number with a unique index, verified flag,
 * update time in integer milliseconds), for SQLite (and D1), PostgreSQL and MySQL/MariaDB through your Kysely
 * instance. Call `migrate()` once at start-up (or `auth.migrate()`, which runs it): idempotent. The caller owns
 * `db` and destroys it. `phoneNumber()` builds it on the auth adapter's own database when given no `storage`.
 *
 * @throws TypeError at creation for a malformed `tablePrefix` or an unknown or undetectable dialect.
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * import { Kysely, SqliteDialect } from 'kysely';
 * import { createSqlPhoneNumberStorage } from '@framework/auth/plugins/phone-number';
 *
 * const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database('.data/app.db') }) });
 * const storage = createSqlPhoneNumberStorage(db);
 * await storage.migrate();
 * ```
 */
export function createSqlPhoneNumberStorage(
  db: Kysely<any>,
  options: SqlPhoneNumberStorageOptions = {},
): PhoneNumberStorage {
  const s = pluginSql(db, options, 'phone_numbers', 'createSqlPhoneNumberStorage');
  const { q, traits } = s;
  const table = s.prefix;
  const one = async (column: 'user_id' | 'phone_number', value: string) => {
    const row = await q.selectFrom(table).selectAll().where(column, '=', value).$castTo<Row>().executeTakeFirst();
    return row ? toRecord(row) : null;
  };
  return {
    migrate: () => s.migrate(migrations(s, table)),
    getByUser: (userId) => one('user_id', userId),
    getByNumber: (phoneNumber) => one('phone_number', phoneNumber),
    async set(r) {
      const fresh = {
        phone_number: r.phoneNumber,
        verified: traits.encodeBool(r.verified),
        updated_at: r.updatedAt.getTime(),
      };
      // An update, else an insert (no upsert: MySQL's ON DUPLICATE KEY would fire on the number's unique index and
      // overwrite another user's row). A unique violation is the number held by another user, or a race with
      // another write for the same user (then once more).
      for (let round = 0; round < 2; round++) {
        try {
          const updated = await q.updateTable(table).set(fresh).where('user_id', '=', r.userId).executeTakeFirst();
          if (Number(updated.numUpdatedRows) > 0) return true;
          await q
            .insertInto(table)
            .values({ user_id: r.userId, ...fresh })
            .execute();
          return true;
        } catch (error) {
          if (traits.uniqueViolation(error) === null) throw error;
          const holder = await one('phone_number', r.phoneNumber);
          if (holder && holder.userId !== r.userId) return false;
        }
      }
      return false;
    },
    async remove(userId) {
      await q.deleteFrom(table).where('user_id', '=', userId).execute();
    },
  };
}
