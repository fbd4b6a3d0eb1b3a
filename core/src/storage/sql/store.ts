/**
 * The one Kysely implementation of {@link StorageAdapter}, shared by SQLite,
 * PostgreSQL and MySQL/MariaDB. Opens its connection lazily, on the first call.
 * @module
 * @internal
 */
import {
  CompiledQuery,
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type RawBuilder,
  type SqlBool,
} from 'kysely';
import {
  normalizeEmail,
  resolveListUsersQuery,
  toAccount,
  toAuthenticator,
  toSession,
  toUser,
  toVerificationToken,
} from '../records.js';
import { attachSessionReadNow } from '../session-read-now.js';
import { StorageConflictError, type AdapterSession, type AdapterUser, type StorageAdapter } from '../types.js';
import { dialects, differs, type SqlDialectName } from './dialect.js';
import { explainedRethrow, withExplainedErrors, type ExplainError } from './explain-errors.js';
import { cachedCount } from './cached-count.js';
import { countAfterInSlices } from './sliced-count.js';
import { migrateToLatest } from './migrations.js';
import { deferredKysely } from './deferred-kysely.js';
import type { UserField } from '../../user-fields/definitions.js';
import { newUserFieldValues, patchedFieldValues } from '../../user-fields/records.js';
import {
  addMissingFieldColumns,
  decodeFieldColumns,
  encodeFieldColumns,
  uniqueFieldOf,
} from '../../user-fields/sql.js';
import { userSearch } from './user-search.js';
import { purgeExpiredRows, purgeInBatches, resolvePurgeOptions } from './purge.js';
import {
  decodeAccount,
  decodeAuthenticator,
  decodeSession,
  decodeUser,
  decodeVerificationToken,
  encodeAccount,
  encodeAccountPatch,
  encodeAuthenticator,
  encodeSession,
  encodeUser,
  encodeUserPatch,
  encodeVerificationToken,
  type UserColumns,
} from './rows.js';
import {
  tableNames,
  type AccountRow,
  type AuthenticatorRow,
  type SessionRow,
  type UserRow,
  type VerificationTokenRow,
} from './tables.js';

/** An open database and how to release it. */
export interface SqlConnection {
  db: Kysely<any>;
  /** Releases what the adapter opened; a no-op for connections the caller owns. */
  close(): Promise<void>;
  /**
   * Prepares `sql` once, below Kysely, for the hottest read (a session and
   * its user): a better-sqlite3 statement, or a PostgreSQL named prepared
   * statement. Optional: without it the read goes through Kysely.
   */
  prepareRead?(sql: string): PreparedRead;
}

/**
 * Runs a prepared read with `params` and answers `decode(firstRow, params)`: the value itself where the driver
 * answers synchronously, else a promise settled in one step (`onError`, when given, handles a failed read in
 * that same step; it throws).
 */
export type PreparedRead = <T>(
  params: readonly unknown[],
  decode: (row: Record<string, unknown> | undefined, params: readonly unknown[]) => T,
  onError?: (error: unknown) => never,
) => T | Promise<T>;

export interface SqlStoreOptions {
  dialect: SqlDialectName;
  tablePrefix?: string | undefined;
  /** Opens the connection; called on first use, and again after `close()`. */
  open(): Promise<SqlConnection>;
  /** Rewrites a failed call's error into one naming the database and the fix (see explain-errors.ts). */
  explainError?: ExplainError | undefined;
}

/**
 * A joined session row: session columns prefixed with `_s_` (no user column can start with `_`: custom field names
 * begin with a letter, so a field such as `sExpires`, column `s_expires`, cannot stand in for the session's), then
 * the user's columns.
 */
type SessionUserRow = UserColumns & {
  _s_token_hash: string;
  _s_expires: SessionRow['expires'];
  _s_created_at: SessionRow['created_at'];
  _s_user_agent: SessionRow['user_agent'];
  _s_ip: SessionRow['ip'];
  _s_last_active_at: SessionRow['last_active_at'];
  _s_impersonated_by: SessionRow['impersonated_by'];
};

type Found = { session: AdapterSession; user: AdapterUser } | null;

interface Ready extends SqlConnection {
  /**
   * `getSessionAndUser`, compiled once and prepared once; its only parameter is the session id. `onError` (which
   * throws) handles a failure, synchronous or not.
   */
  readSession(id: string, onError?: (error: unknown) => never): Found | Promise<Found>;
}

type AccountKey = { provider: string; providerAccountId: string };

/** Creates the Kysely-backed adapter. */
export function createSqlStore(options: SqlStoreOptions): StorageAdapter {
  const traits = dialects[options.dialect];
  if (!traits)
    throw new TypeError(`Unknown SQL dialect ${JSON.stringify(options.dialect)}: use 'sqlite', 'postgres' or 'mysql'`);
  const t = tableNames(options.tablePrefix);
  let opening: Promise<Ready> | undefined;
  /** `opening`'s value once resolved, so the hot read skips awaiting it. */
  let opened: Ready | undefined;
  /** Custom user fields (`createAuth({ user: { additionalFields } })`). */
  let fields: readonly UserField[] = [];
  /** A users row as a user, custom fields included. */
  const decodeStoredUser = (row: UserColumns): AdapterUser =>
    fields.length === 0 ? decodeUser(row) : Object.assign(decodeUser(row), decodeFieldColumns(row, fields));

  async function prepare(): Promise<Ready> {
    const connection = await options.open();
    const db = connection.db.withoutPlugins();
    const sessionQuery = db
      .selectFrom(`${t.sessions} as s`)
      .innerJoin(`${t.users} as u`, 'u.id', 's.user_id')
      .select(['s.token_hash as _s_token_hash', 's.expires as _s_expires', 's.created_at as _s_created_at'])
      .select(['s.user_agent as _s_user_agent', 's.ip as _s_ip', 's.last_active_at as _s_last_active_at'])
      .select('s.impersonated_by as _s_impersonated_by')
      // Every user column: custom fields (configureUserFields) may be set after the first open.
      .selectAll('u')
      .where('s.id', '=', '')
      .compile().sql;
    const decode = (row: Record<string, unknown> | undefined, params: readonly unknown[]): Found =>
      foundOf(params[0] as string, row as SessionUserRow | undefined, decodeStoredUser);
    const prepared = connection.prepareRead?.(sessionQuery);
    const readSession: Ready['readSession'] = prepared
      ? (id, onError) => prepared([id], decode, onError)
      : (id, onError) => {
          const params = [id];
          const found = db
            .executeQuery<SessionUserRow>(CompiledQuery.raw(sessionQuery, params))
            .then((result) => decode(result.rows[0], params));
          return onError ? found.catch(onError) : found;
        };
    return { db, close: connection.close, readSession };
  }

  /** The open connection, opened on first use; a failed open is retried by the next call. */
  function ready(): Promise<Ready> {
    if (!opening) {
      // Only the open still current may publish itself: one that close() abandoned must not come back as `opened`.
      const current: Promise<Ready> = prepare().then(
        (value) => {
          if (opening === current) opened = value;
          return value;
        },
        (error: unknown) => {
          if (opening === current) opening = undefined;
          throw error;
        },
      );
      opening = current;
    }
    return opening;
  }

  /** Runs `write`, turning a unique violation into a StorageConflictError on `field(violationText)`. */
  async function guard<T>(write: Promise<T>, field: (violation: string) => string): Promise<T> {
    try {
      return await write;
    } catch (error) {
      const violation = traits.uniqueViolation(error);
      if (violation === null) throw error;
      const conflict = new StorageConflictError(`Unique constraint violated: ${violation}`, field(violation));
      conflict.cause = error;
      throw conflict;
    }
  }

  const userOrNull = (row: UserRow | undefined) => (row ? decodeStoredUser(row) : null);
  /**
   * The exact number of sessions unexpired at `now`: one `COUNT(*)` over the expiry index, or on SQLite one per
   * slice of it with the event loop running between them (see sliced-count.ts).
   */
  async function countActive(now: Date): Promise<number> {
    const { db } = await ready();
    if (options.dialect === 'sqlite') return countAfterInSlices(db, t.sessions, now.getTime());
    const row = await db
      .selectFrom(t.sessions)
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where('expires', '>', now.getTime())
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
  const searchUsers = userSearch(options.dialect, t);
  /** The count for dashboards, read at most once a minute per adapter (see cached-count.ts). */
  const activeNow = cachedCount(() => countActive(new Date()));
  /**
   * Deletes at most `limit` rows of `table` whose `expires` is at or before `now`, picked through the expiry
   * index; returns how many. The outer `expires` test keeps a row whose expiry moved meanwhile. PostgreSQL
   * fetches the picked rows by `ctid` (a TID scan): a key `IN (subquery)` there is planned as a join over every
   * expired row, once per batch. SQLite picks and deletes them by `rowid`.
   */
  async function deleteExpiredBatch(table: string, now: Date, limit: number): Promise<number> {
    const { db } = await ready();
    const until = now.getTime();
    if (options.dialect === 'postgres') {
      const picked = sql`select ctid from ${sql.table(table)} where expires <= ${until} limit ${limit}`;
      const result =
        await sql`delete from ${sql.table(table)} where ctid = any(array(${picked})) and expires <= ${until}`.execute(
          db,
        );
      return Number(result.numAffectedRows ?? 0);
    }
    if (options.dialect === 'mysql') {
      // MySQL refuses `LIMIT` in an `IN (subquery)` on the same table, but deletes in index order with a limit.
      const result = await db
        .deleteFrom(table)
        .where('expires', '<=', until)
        .orderBy('expires')
        .limit(limit)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    }
    // By rowid: the expiry index holds it, so picking the batch reads the index alone, and each row is deleted
    // without a second look-up through the primary key's index.
    const expired = db
      .selectFrom(table)
      .select(sql.ref('rowid').as('rowid'))
      .where('expires', '<=', until)
      .limit(limit);
    const result = await db
      .deleteFrom(table)
      .where('expires', '<=', until)
      .where(sql.ref('rowid'), 'in', expired)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * `session_version = session_version + 1` when the patch changes `role` or
   * `roles` (compared null-safely with the row's old values, in the same
   * statement); nothing when it touches neither.
   */
  function bumpOnRoleChange(row: Partial<UserRow>): { session_version?: RawBuilder<unknown> } {
    const changed = (['role', 'roles'] as const)
      .filter((column) => row[column] !== undefined)
      .map((column) => differs(traits, sql.ref(column), row[column]));
    if (changed.length === 0) return {};
    const version = sql.ref('session_version');
    return { session_version: sql`case when ${sql.join(changed, sql` or `)} then ${version} + 1 else ${version} end` };
  }
  const byAccount = (key: AccountKey) => (eb: ExpressionBuilder<any, any>) =>
    eb.and([eb('provider', '=', key.provider), eb('provider_account_id', '=', key.providerAccountId)]);
  const byId =
    (column: string, id: string) =>
    (eb: ExpressionBuilder<any, any>): Expression<SqlBool> =>
      eb(column, '=', id);

  /**
   * `UPDATE … SET set WHERE where RETURNING *`: the updated row, or undefined when none matched. Without
   * `RETURNING` (MySQL) the update and a read of the row run in one transaction; `where` names a key, so the
   * read finds the row the update changed (its row lock is held until the commit).
   */
  async function updateReturning<R>(
    db: Kysely<any>,
    table: string,
    set: Record<string, unknown>,
    where: (eb: ExpressionBuilder<any, any>) => Expression<SqlBool>,
  ): Promise<R | undefined> {
    if (traits.returning)
      return db.updateTable(table).set(set).where(where).returningAll().$castTo<R>().executeTakeFirst();
    return db.transaction().execute(async (trx) => {
      await trx.updateTable(table).set(set).where(where).execute();
      return trx.selectFrom(table).selectAll().where(where).$castTo<R>().executeTakeFirst();
    });
  }

  const adapter: StorageAdapter = {
    kysely: deferredKysely(options.dialect, async () => (await ready()).db),
    async migrate() {
      const { db } = await ready();
      await migrateToLatest(db, t, traits, options.dialect);
      await addMissingFieldColumns(db, t.users, fields, traits);
    },
    configureUserFields(given) {
      fields = given;
    },
    async close() {
      const current = opening;
      opening = undefined;
      opened = undefined;
      if (current) await (await current).close();
    },

    async createUser(input) {
      const { db } = await ready();
      const user = toUser(input.id ?? crypto.randomUUID(), input);
      const values = newUserFieldValues(input, fields);
      const row = { ...encodeUser(user), ...encodeFieldColumns(values, fields, traits) };
      const insert = db.insertInto(t.users).values(row).execute();
      await guard(insert, (violation) =>
        violation.includes('email_normalized') ? 'email' : (uniqueFieldOf(violation, fields, t.users) ?? 'id'),
      );
      return Object.assign(user, values);
    },
    async getUser(id) {
      const { db } = await ready();
      return userOrNull(
        await db.selectFrom(t.users).selectAll().where('id', '=', id).$castTo<UserRow>().executeTakeFirst(),
      );
    },
    async getUserByEmail(email) {
      const { db } = await ready();
      const row = await db
        .selectFrom(t.users)
        .selectAll()
        .where('email_normalized', '=', normalizeEmail(email))
        .$castTo<UserRow>()
        .executeTakeFirst();
      return userOrNull(row);
    },
    async getUserByAccount(key) {
      const { db } = await ready();
      const row = await db
        .selectFrom(`${t.accounts} as a`)
        .innerJoin(`${t.users} as u`, 'u.id', 'a.user_id')
        .selectAll('u')
        .where('a.provider', '=', key.provider)
        .where('a.provider_account_id', '=', key.providerAccountId)
        .$castTo<UserRow>()
        .executeTakeFirst();
      return userOrNull(row);
    },
    async updateUser(id, patch) {
      const { db } = await ready();
      const row = {
        ...encodeUserPatch(patch),
        ...encodeFieldColumns(patchedFieldValues(patch, fields), fields, traits),
      };
      if (Object.keys(row).length === 0) return adapter.getUser(id);
      // The bump first: MySQL evaluates assignments in order, each seeing the ones before it.
      const set = { ...bumpOnRoleChange(row), ...row };
      const update = updateReturning<UserRow>(db, t.users, set, byId('id', id));
      return userOrNull(await guard(update, (violation) => uniqueFieldOf(violation, fields, t.users) ?? 'email'));
    },
    async deleteUser(id) {
      const { db } = await ready();
      // Foreign keys cascade too; deleting explicitly also covers SQLite connections without `foreign_keys = ON`.
      await db.transaction().execute(async (trx) => {
        for (const table of [t.authenticators, t.sessions, t.accounts])
          await trx.deleteFrom(table).where('user_id', '=', id).execute();
        await trx.deleteFrom(t.users).where('id', '=', id).execute();
      });
    },
    async listUsers(query) {
      const { db } = await ready();
      const { search, limit, after } = resolveListUsersQuery(query);
      if (search !== undefined) {
        // Index-backed, in the searched key's order: by prefix, or anywhere on PostgreSQL with pg_trgm (see user-search.ts).
        const page = await searchUsers.page<UserRow>(db, t.users, search, limit, after);
        return { users: page.rows.map(decodeStoredUser), next: page.next };
      }
      let select = db
        .selectFrom(t.users)
        .selectAll()
        .orderBy('id')
        .limit(limit + 1);
      if (after !== undefined) select = select.where('id', '>', after);
      const rows = await select.$castTo<UserRow>().execute();
      const users = rows.slice(0, limit).map(decodeStoredUser);
      return { users, next: rows.length > limit ? users[users.length - 1]!.id : null };
    },
    async getSessionVersion(userId) {
      const { db } = await ready();
      const row = await db
        .selectFrom(t.users)
        .select('session_version')
        .where('id', '=', userId)
        .$castTo<Pick<UserRow, 'session_version'>>()
        .executeTakeFirst();
      return row ? Number(row.session_version) : null;
    },
    async bumpSessionVersion(userId) {
      const { db } = await ready();
      const bump = { session_version: sql`${sql.ref('session_version')} + 1` };
      const row = await updateReturning<UserRow>(db, t.users, bump, byId('id', userId));
      return row ? Number(row.session_version) : null;
    },

    async linkAccount(input) {
      const { db } = await ready();
      const account = toAccount(input);
      await guard(db.insertInto(t.accounts).values(encodeAccount(account)).execute(), () => 'account');
      return account;
    },
    async getAccount(key) {
      const { db } = await ready();
      const row = await db
        .selectFrom(t.accounts)
        .selectAll()
        .where(byAccount(key))
        .$castTo<AccountRow>()
        .executeTakeFirst();
      return row ? decodeAccount(row) : null;
    },
    async listAccounts(userId) {
      const { db } = await ready();
      const rows = await db
        .selectFrom(t.accounts)
        .selectAll()
        .where('user_id', '=', userId)
        .$castTo<AccountRow>()
        .execute();
      return rows.map(decodeAccount);
    },
    async updateAccount(key, patch) {
      const { db } = await ready();
      const row = encodeAccountPatch(patch);
      if (Object.keys(row).length === 0) return adapter.getAccount(key);
      const updated = await updateReturning<AccountRow>(db, t.accounts, row, byAccount(key));
      return updated ? decodeAccount(updated) : null;
    },
    async unlinkAccount(key) {
      const { db } = await ready();
      await db.deleteFrom(t.accounts).where(byAccount(key)).execute();
    },

    async createSession(input) {
      const { db } = await ready();
      const session = toSession(input);
      await guard(db.insertInto(t.sessions).values(encodeSession(session)).execute(), () => 'id');
      return session;
    },
    async getSessionAndUser(id) {
      // The hot path: one join, compiled once and prepared once (below Kysely where the dialect can).
      // Synchronous on SQLite once open: no tick spent before or after the statement (see readSessionNow).
      const { readSession } = opened ?? (await ready());
      return readSession(id);
    },
    async updateSessionExpiry(id, expires, lastActiveAt) {
      const { db } = await ready();
      const set = { expires: expires.getTime(), ...(lastActiveAt ? { last_active_at: lastActiveAt.getTime() } : {}) };
      const row = await updateReturning<SessionRow>(db, t.sessions, set, byId('id', id));
      return row ? decodeSession(row) : null;
    },
    async listSessions(userId) {
      const { db } = await ready();
      const rows = await db
        .selectFrom(t.sessions)
        .selectAll()
        .where('user_id', '=', userId)
        .$castTo<SessionRow>()
        .execute();
      return rows.map(decodeSession);
    },
    countActiveSessions: (now) => (now ? countActive(now) : activeNow()),
    async deleteSession(id) {
      const { db } = await ready();
      await db.deleteFrom(t.sessions).where('id', '=', id).execute();
    },
    async deleteUserSessions(userId) {
      const { db } = await ready();
      const result = await db.deleteFrom(t.sessions).where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async deleteExpiredSessions(now) {
      const { deleted } = await purgeInBatches(deleteExpiredBatch, [t.sessions], now, resolvePurgeOptions());
      return deleted[0]!;
    },
    purgeExpired: (now = new Date(), options) => purgeExpiredRows(deleteExpiredBatch, t, now, options),

    async createVerificationToken(input) {
      const { db } = await ready();
      const token = toVerificationToken(input);
      await guard(
        db.insertInto(t.verificationTokens).values(encodeVerificationToken(token)).execute(),
        () => 'tokenHash',
      );
      return token;
    },
    async useVerificationToken({ identifier, tokenHash }) {
      const { db } = await ready();
      const byToken = (eb: ExpressionBuilder<any, any>) =>
        eb.and([eb('identifier', '=', identifier), eb('token_hash', '=', tokenHash)]);
      // One statement finds and deletes the row, so only one caller can get it. Without `RETURNING` (MySQL),
      // the row is locked (`SELECT … FOR UPDATE`) then deleted in one transaction: a concurrent caller waits
      // for the lock, then finds no row.
      const row = traits.returning
        ? await db
            .deleteFrom(t.verificationTokens)
            .where(byToken)
            .returningAll()
            .$castTo<VerificationTokenRow>()
            .executeTakeFirst()
        : await db.transaction().execute(async (trx) => {
            const found = await trx
              .selectFrom(t.verificationTokens)
              .selectAll()
              .where(byToken)
              .forUpdate()
              .$castTo<VerificationTokenRow>()
              .executeTakeFirst();
            if (found) await trx.deleteFrom(t.verificationTokens).where(byToken).execute();
            return found;
          });
      return row ? decodeVerificationToken(row) : null;
    },
    async deleteVerificationTokens({ identifier, expiresAfter }) {
      const { db } = await ready();
      // The primary key starts with the identifier: an index range, not a scan.
      let query = db.deleteFrom(t.verificationTokens).where('identifier', '=', identifier);
      if (expiresAfter) query = query.where('expires', '>', expiresAfter.getTime());
      const result = await query.executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async createAuthenticator(input) {
      const { db } = await ready();
      const authenticator = toAuthenticator(input);
      const insert = db.insertInto(t.authenticators).values(encodeAuthenticator(authenticator, traits)).execute();
      await guard(insert, () => 'credentialId');
      return authenticator;
    },
    async getAuthenticator(credentialId) {
      const { db } = await ready();
      const row = await db
        .selectFrom(t.authenticators)
        .selectAll()
        .where('credential_id', '=', credentialId)
        .$castTo<AuthenticatorRow>()
        .executeTakeFirst();
      return row ? decodeAuthenticator(row) : null;
    },
    async listAuthenticators(userId) {
      const { db } = await ready();
      const rows = await db
        .selectFrom(t.authenticators)
        .selectAll()
        .where('user_id', '=', userId)
        .$castTo<AuthenticatorRow>()
        .execute();
      return rows.map(decodeAuthenticator);
    },
    async updateAuthenticatorCounter(credentialId, counter) {
      const { db } = await ready();
      const result = await db
        .updateTable(t.authenticators)
        .set({ counter })
        .where('credential_id', '=', credentialId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async deleteAuthenticator(userId, credentialId) {
      const { db } = await ready();
      const result = await db
        .deleteFrom(t.authenticators)
        .where('credential_id', '=', credentialId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
  // The same read without a promise where the statement answers synchronously (better-sqlite3, once open), and
  // on PostgreSQL settled in one promise step: decoded, and a failure explained, in the driver's own `then`.
  const rethrow = options.explainError ? explainedRethrow(options.explainError) : undefined;
  attachSessionReadNow(
    adapter,
    (id) => {
      if (opened) return opened.readSession(id, rethrow);
      const found = adapter.getSessionAndUser(id);
      return rethrow ? found.catch(rethrow) : found;
    },
    adapter.getSessionAndUser,
  );
  return options.explainError
    ? withExplainedErrors(adapter, options.explainError, { readNowExplained: true })
    : adapter;
}

/** The session and user of a `readSessionRow` row, or null. */
function foundOf(
  id: string,
  row: SessionUserRow | undefined,
  decodeStoredUser: (row: UserColumns) => AdapterUser,
): { session: AdapterSession; user: AdapterUser } | null {
  if (!row) return null;
  const session = decodeSession({
    id,
    token_hash: row._s_token_hash,
    user_id: row.id,
    expires: row._s_expires,
    created_at: row._s_created_at,
    user_agent: row._s_user_agent,
    ip: row._s_ip,
    last_active_at: row._s_last_active_at,
    impersonated_by: row._s_impersonated_by,
  });
  return { session, user: decodeStoredUser(row) };
}
