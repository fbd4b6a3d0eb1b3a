/**
 * `createSqlOtpStorage`: one-time codes in one SQL table, over a Kysely instance you own.
 * @module
 */
import type { Kysely } from 'kysely';
import { createTable, pluginSql, upsert, type PluginSql, type SqlDialectName } from '../../../plugin-kit.js';
import type { OtpStorage } from '../types.js';

/** Options of {@link createSqlOtpStorage}. */
export interface SqlOtpStorageOptions {
  /** Prefix of the table names (letters, digits, `_`): `<prefix>_codes`, `<prefix>_migrations`. Default `otp`. */
  tablePrefix?: string;
  /** Which SQL `db` speaks. Default: detected from the Kysely dialect. */
  dialect?: SqlDialectName;
}

interface CodeRow {
  code_hash: string;
  attempts: number | string;
}

function migrations(s: PluginSql, table: string) {
  const { key, int64 } = s.traits;
  return {
    '0001_otp_codes': {
      async up(db: Kysely<any>) {
        await createTable(db, table, s.traits)
          .addColumn('id', key, (c) => c.primaryKey())
          .addColumn('code_hash', key, (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull())
          .addColumn('expires_at', int64, (c) => c.notNull())
          .execute();
        await db.schema.createIndex(`${table}_expires_at_idx`).on(table).column('expires_at').execute();
      },
    },
  };
}

/**
 * One-time codes in the table `<tablePrefix>_codes` (key, code hash, tries, expiry in integer milliseconds), for
 * SQLite (≥ 3.35, and D1), PostgreSQL and MySQL/MariaDB through your Kysely instance. Call `migrate()` once at
 * start-up (or `auth.migrate()`, which runs it): idempotent. Only keyed hashes are stored, never a code or an
 * address. The caller owns `db` and destroys it.
 *
 * @throws TypeError at creation for a malformed `tablePrefix` or an unknown or undetectable dialect.
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * import { Kysely, SqliteDialect } from 'kysely';
 * import { createSqlOtpStorage } from '@framework/auth/plugins/otp';
 *
 * const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database('.data/app.db') }) });
 * const storage = createSqlOtpStorage(db);
 * await storage.migrate();
 * ```
 */
export function createSqlOtpStorage(db: Kysely<any>, options: SqlOtpStorageOptions = {}): OtpStorage {
  const s = pluginSql(db, options, 'otp', 'createSqlOtpStorage');
  const { q, traits } = s;
  const table = `${s.prefix}_codes`;
  const count = (on: Kysely<any>, id: string, now: Date) =>
    on
      .updateTable(table)
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('expires_at', '>', now.getTime());
  return {
    migrate: () => s.migrate(migrations(s, table)),
    async put({ id, codeHash, expiresAt }) {
      await q.deleteFrom(table).where('expires_at', '<=', Date.now()).execute();
      const fresh = { code_hash: codeHash, attempts: 0, expires_at: expiresAt.getTime() };
      await upsert(q, traits, table, { id, ...fresh }, ['id'], fresh).execute();
    },
    async attempt(id, now) {
      // Without RETURNING (MySQL): the count, then a read under the row lock the update took.
      const row: CodeRow | undefined = traits.returning
        ? await count(q, id, now).returning(['code_hash', 'attempts']).$castTo<CodeRow>().executeTakeFirst()
        : await q.transaction().execute(async (tx) => {
            if (Number((await count(tx, id, now).executeTakeFirst()).numUpdatedRows) === 0) return undefined;
            return tx
              .selectFrom(table)
              .select(['code_hash', 'attempts'])
              .where('id', '=', id)
              .$castTo<CodeRow>()
              .executeTakeFirst();
          });
      return row ? { codeHash: row.code_hash, attempts: Number(row.attempts) } : null;
    },
    async consume(id, codeHash) {
      const result = await q
        .deleteFrom(table)
        .where('id', '=', id)
        .where('code_hash', '=', codeHash)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async remove(id) {
      await q.deleteFrom(table).where('id', '=', id).execute();
    },
  };
}
