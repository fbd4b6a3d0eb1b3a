/**
 * `createSqlTwoFactorStorage`: two-factor records in SQL tables, over a Kysely instance you own (SQLite or
 * PostgreSQL).
 * @module
 */
import type { Kysely } from 'kysely';
import { pluginSql, upsert, type SqlDialectName } from '../../../plugin-kit.js';
import type { TrustedDeviceRecord, TwoFactorRecord, TwoFactorStorage } from '../types.js';
import { twoFactorMigrations, twoFactorTables } from './sql-schema.js';

/** Options of {@link createSqlTwoFactorStorage}. */
export interface SqlTwoFactorStorageOptions {
  /** Prefix of the table names (letters, digits, `_`). Default `two_factor`. */
  tablePrefix?: string;
  /** Which SQL `db` speaks. Default: detected from the Kysely dialect. */
  dialect?: SqlDialectName;
}

type Int = number | string;
interface EnrolmentRow {
  user_id: string;
  secret: string;
  enabled: number | boolean;
  last_used_step: Int | null;
  created_at: Int;
  enabled_at: Int | null;
}
interface DeviceRow {
  id: string;
  user_id: string;
  secret_hash: string;
  user_agent: string | null;
  created_at: Int;
  expires_at: Int;
}

const toEnrolment = (r: EnrolmentRow): TwoFactorRecord => ({
  userId: r.user_id,
  secret: r.secret,
  enabled: Boolean(r.enabled),
  lastUsedStep: r.last_used_step === null ? null : Number(r.last_used_step),
  createdAt: new Date(Number(r.created_at)),
  enabledAt: r.enabled_at === null ? null : new Date(Number(r.enabled_at)),
});
const toDevice = (r: DeviceRow): TrustedDeviceRecord => ({
  id: r.id,
  userId: r.user_id,
  secretHash: r.secret_hash,
  userAgent: r.user_agent,
  createdAt: new Date(Number(r.created_at)),
  expiresAt: new Date(Number(r.expires_at)),
});

/**
 * Creates a two-factor storage over four SQL tables (see `tablePrefix`), for SQLite (≥ 3.35), MySQL/MariaDB or PostgreSQL through
 * your Kysely instance. Call `migrate()` once at start-up (or `auth.migrate()`, which runs it): idempotent. Times
 * are integer milliseconds (`bigint` in PostgreSQL). Keys are stored encrypted by the plugin; backup codes and
 * trust-cookie secrets only as SHA-256 hashes. The caller owns `db` and destroys it.
 *
 * @throws TypeError at creation for a malformed `tablePrefix` or an unknown or undetectable dialect.
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * import { Kysely, SqliteDialect } from 'kysely';
 * import { twoFactor, createSqlTwoFactorStorage } from '@framework/auth/plugins/two-factor';
 *
 * const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database('.data/app.db') }) });
 * createAuth({ ...config, plugins: [twoFactor({ storage: createSqlTwoFactorStorage(db) })] });
 * await auth.migrate();
 * ```
 */
export function createSqlTwoFactorStorage(db: Kysely<any>, options: SqlTwoFactorStorageOptions = {}): TwoFactorStorage {
  const { q, prefix, traits, migrate } = pluginSql(
    db,
    { tablePrefix: options.tablePrefix, dialect: options.dialect },
    'two_factor',
    'createSqlTwoFactorStorage',
  );
  const t = twoFactorTables(prefix);
  const bool = traits.encodeBool;

  async function ensureChallenge(id: string, expiresAt: Date): Promise<void> {
    await q.deleteFrom(t.challenges).where('expires_at', '<=', Date.now()).execute();
    const row = { id, attempts: 0, consumed: bool(false), expires_at: expiresAt.getTime() };
    await upsert(q, traits, t.challenges, row, ['id'], null).execute();
  }

  return {
    migrate: () => migrate(twoFactorMigrations(t, traits)),
    async get(userId) {
      const row = await q
        .selectFrom(t.enrolments)
        .selectAll()
        .where('user_id', '=', userId)
        .$castTo<EnrolmentRow>()
        .executeTakeFirst();
      return row ? toEnrolment(row) : null;
    },
    async put(r) {
      const row = {
        secret: r.secret,
        enabled: bool(r.enabled),
        last_used_step: r.lastUsedStep,
        created_at: r.createdAt.getTime(),
        enabled_at: r.enabledAt?.getTime() ?? null,
      };
      await upsert(q, traits, t.enrolments, { user_id: r.userId, ...row }, ['user_id'], row).execute();
    },
    async enable(userId, at) {
      const result = await q
        .updateTable(t.enrolments)
        .set({ enabled: bool(true), enabled_at: at.getTime() })
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async remove(userId) {
      await q.transaction().execute(async (tx) => {
        await tx.deleteFrom(t.enrolments).where('user_id', '=', userId).execute();
        await tx.deleteFrom(t.backupCodes).where('user_id', '=', userId).execute();
        await tx.deleteFrom(t.trustedDevices).where('user_id', '=', userId).execute();
      });
    },
    async useStep(userId, step) {
      const result = await q
        .updateTable(t.enrolments)
        .set({ last_used_step: step })
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async setBackupCodes(userId, hashes) {
      await q.transaction().execute(async (tx) => {
        await tx.deleteFrom(t.backupCodes).where('user_id', '=', userId).execute();
        if (hashes.length > 0)
          await tx
            .insertInto(t.backupCodes)
            .values(hashes.map((code_hash) => ({ user_id: userId, code_hash })))
            .execute();
      });
    },
    async useBackupCode(userId, hash) {
      const result = await q
        .deleteFrom(t.backupCodes)
        .where('user_id', '=', userId)
        .where('code_hash', '=', hash)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async countBackupCodes(userId) {
      const row = await q
        .selectFrom(t.backupCodes)
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async addTrustedDevice(d) {
      await q
        .insertInto(t.trustedDevices)
        .values({
          id: d.id,
          user_id: d.userId,
          secret_hash: d.secretHash,
          user_agent: d.userAgent,
          created_at: d.createdAt.getTime(),
          expires_at: d.expiresAt.getTime(),
        })
        .execute();
    },
    async findTrustedDevice(id) {
      const row = await q
        .selectFrom(t.trustedDevices)
        .selectAll()
        .where('id', '=', id)
        .$castTo<DeviceRow>()
        .executeTakeFirst();
      return row ? toDevice(row) : null;
    },
    async listTrustedDevices(userId, now) {
      const rows = await q
        .selectFrom(t.trustedDevices)
        .selectAll()
        .where('user_id', '=', userId)
        .where('expires_at', '>', now.getTime())
        .orderBy('created_at')
        .orderBy('id')
        .$castTo<DeviceRow>()
        .execute();
      return rows.map(toDevice);
    },
    async removeTrustedDevices(userId, id) {
      let query = q.deleteFrom(t.trustedDevices).where('user_id', '=', userId);
      if (id !== undefined) query = query.where('id', '=', id);
      const result = await query.executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async challengeAttempt(id, expiresAt) {
      await ensureChallenge(id, expiresAt);
      const count = (db: Kysely<any>) =>
        db
          .updateTable(t.challenges)
          .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
          .where('id', '=', id)
          .where('consumed', '=', bool(false));
      // Without RETURNING (MySQL): the count, then a read of it under the row lock the update took.
      const row = traits.returning
        ? await count(q).returning('attempts').executeTakeFirst()
        : await q.transaction().execute(async (tx) => {
            const result = await count(tx).executeTakeFirst();
            if (Number(result.numUpdatedRows) === 0) return undefined;
            return tx.selectFrom(t.challenges).select('attempts').where('id', '=', id).executeTakeFirst();
          });
      return row ? Number(row.attempts) : Number.POSITIVE_INFINITY;
    },
    async consumeChallenge(id, expiresAt) {
      await ensureChallenge(id, expiresAt);
      const result = await q
        .updateTable(t.challenges)
        .set({ consumed: bool(true) })
        .where('id', '=', id)
        .where('consumed', '=', bool(false))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
