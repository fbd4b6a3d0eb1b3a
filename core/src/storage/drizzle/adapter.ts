/**
 * `createDrizzleAdapter`: the storage adapter over an app's Drizzle database, on SQLite (better-sqlite3) or
 * PostgreSQL (node-postgres). Every call is a Drizzle query; the schema is the kit's (the same tables and
 * migrations as the SQL adapters).
 * @module
 */
import { and, count, eq, gt, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { Kysely } from 'kysely';
import * as records from '../records.js';
import { attachSessionReadNow } from '../session-read-now.js';
import { cachedCount } from '../sql/cached-count.js';
import { dialects } from '../sql/dialect.js';
import { migrateToLatest } from '../sql/migrations.js';
import { purgeExpiredRows, purgeInBatches, resolvePurgeOptions } from '../sql/purge.js';
import * as codec from '../sql/rows.js';
import type { AccountRow, AuthenticatorRow, SessionRow, UserRow, VerificationTokenRow } from '../sql/tables.js';
import { tableNames } from '../sql/tables.js';
import { countAfterInSlices } from '../sql/sliced-count.js';
import { userSearch } from '../sql/user-search.js';
import { StorageConflictError, type AdapterSession, type AdapterUser, type StorageAdapter } from '../types.js';
import type { UserField } from '../../user-fields/definitions.js';
import { newUserFieldValues, patchedFieldValues } from '../../user-fields/records.js';
import {
  addMissingFieldColumns,
  decodeFieldColumns,
  encodeFieldColumns,
  uniqueFieldOf,
} from '../../user-fields/sql.js';
import { drizzleConnection, type DrizzleDatabase } from './connection.js';
import type { DrizzleDialect } from './spec.js';
import { rowTables, usersWithFields, type RowTable } from './table-rows.js';
import { kitSchema, resolveSchema, type DrizzleAuthSchema } from './tables.js';

/** Options of {@link createDrizzleAdapter}. */
export interface DrizzleAdapterOptions {
  /**
   * The kit's tables in your Drizzle schema: the module `generateDrizzleSchema` printed, or your own tables of
   * the same names and columns (`authUsers`, `authAccounts`, `authSessions`, `authVerificationTokens`,
   * `authAuthenticators`; other exports are ignored, so `import * as schema` of your whole schema works). Their
   * names give the table prefix. Default: the kit's tables with the prefix `auth_`.
   */
  schema?: DrizzleAuthSchema;
}

/** The adapter, plus what plugins need to store their own records in the same database. */
export interface DrizzleStorageAdapter extends StorageAdapter {
  /** `'sqlite'` or `'postgres'`, told from the Drizzle database. */
  readonly dialect: DrizzleDialect;
  /**
   * A Kysely instance over the same driver client as the Drizzle database (the better-sqlite3 `Database`, the
   * node-postgres `Pool`), for the plugins' SQL storages: `createSqlTwoFactorStorage(adapter.kysely)`,
   * `createSqlAdminStorage`, `createSqlAuditStorage`, `createSqlInvitationStorage`, the API-key and JWT storages.
   * It runs `migrate()` too. Never destroy it: the app owns the connection.
   */
  readonly kysely: Kysely<any>;
}

type AccountKey = { provider: string; providerAccountId: string };

/** The error a Drizzle call threw, or the driver's error inside Drizzle's `DrizzleQueryError`. */
const causes = (error: unknown): unknown[] => [error, (error as { cause?: unknown } | null)?.cause];

/**
 * Creates a storage adapter over a Drizzle database: `drizzle-orm/better-sqlite3` or
 * `drizzle-orm/node-postgres` (a `Pool`; a single `Client` works but serialises every query). The tables are
 * the SQL adapters' own (`auth_users`, …), created and upgraded by `migrate()` with the kit's migrations, so an
 * app can switch between `createSqliteAdapter`/`createPostgresAdapter` and this adapter on the same database.
 * `generateDrizzleSchema` prints them as a Drizzle schema file for your queries and relations.
 *
 * Methods behave as those of `createSqlAdapter` (the same conformance suite), and reject with
 * `StorageConflictError` (`code: 'CONFLICT'`) on a taken unique field. `close()` does nothing: the app owns
 * the database.
 *
 * @param db A Drizzle database (better-sqlite3 or node-postgres).
 * @throws TypeError at creation for another driver or dialect, or a `schema` that lacks a table or column of
 *   the kit (the message names it).
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * import { drizzle } from 'drizzle-orm/better-sqlite3';
 * import { createDrizzleAdapter } from '@framework/auth/drizzle';
 *
 * const db = drizzle(new Database('.data/app.db'));
 * const adapter = createDrizzleAdapter(db);
 * await adapter.migrate();
 * ```
 */
export function createDrizzleAdapter(db: DrizzleDatabase, options: DrizzleAdapterOptions = {}): DrizzleStorageAdapter {
  const { dialect, kysely } = drizzleConnection(db);
  const schema = resolveSchema(options.schema ?? kitSchema(dialect), dialect);
  const tables = rowTables(schema);
  const { accounts, sessions, verificationTokens, authenticators } = tables;
  /** The users table; with custom user fields (configureUserFields), the kit's own one with their columns. */
  let users = tables.users;
  /** Custom user fields (`createAuth({ user: { additionalFields } })`). */
  let fields: readonly UserField[] = [];
  /** A users row as a user, custom fields included. */
  const decodeUser = (row: UserRow): AdapterUser =>
    Object.assign(codec.decodeUser(row), decodeFieldColumns(row, fields));
  const traits = dialects[dialect];
  const usersTable = tableNames(schema.prefix).users;
  const sqlSearch = userSearch(dialect, tableNames(schema.prefix));
  // The query builder API is the same on both dialects; the union of their types is not callable as one.
  const q = db as any;

  /** Runs `write`, turning a unique violation into a StorageConflictError on `field`. */
  async function guard<T>(write: Promise<T>, field: (violation: string) => string): Promise<T> {
    try {
      return await write;
    } catch (error) {
      const violation = causes(error)
        .map((e) => traits.uniqueViolation(e))
        .find((v) => v !== null);
      if (violation === undefined) throw error;
      const conflict = new StorageConflictError(`Unique constraint violated: ${violation}`, field(violation));
      conflict.cause = error;
      throw conflict;
    }
  }
  const first = async <R>(query: PromiseLike<unknown[]>): Promise<R | undefined> => (await query)[0] as R | undefined;
  const selectFrom = (table: RowTable) => q.select(table.selection).from(table.table);
  const byAccount = (key: AccountKey) =>
    and(eq(accounts.c('provider'), key.provider), eq(accounts.c('provider_account_id'), key.providerAccountId));
  /** `UPDATE … SET … WHERE … RETURNING` the kit's columns: the updated row, or undefined. */
  const updateReturning = <R>(table: RowTable, set: Record<string, unknown>, where: SQL | undefined) =>
    first<R>(q.update(table.table).set(table.values(set)).where(where).returning(table.selection));
  /** How many rows a `DELETE … WHERE where` removed. */
  const deleteCount = async (table: RowTable, where: SQL | undefined, key = 'expires'): Promise<number> =>
    (
      await q
        .delete(table.table)
        .where(where)
        .returning({ k: table.c(key) })
    ).length;

  /**
   * `session_version + 1` when the patch changes `role` or `roles` (compared null-safely with the row's old
   * values, in the same statement).
   */
  function bumpOnRoleChange(row: Partial<UserRow>): { session_version?: SQL } {
    const changed = (['role', 'roles'] as const)
      .filter((column) => row[column] !== undefined)
      .map((column) => sql`${users.c(column)} ${sql.raw(traits.distinctFrom!)} ${row[column]}`);
    if (changed.length === 0) return {};
    const version = users.c('session_version');
    return { session_version: sql`case when ${sql.join(changed, sql` or `)} then ${version} + 1 else ${version} end` };
  }

  /**
   * Deletes at most `limit` expired rows of `table`, picked through the expiry index: by `rowid` on SQLite, by
   * `ctid` on PostgreSQL (a TID scan, as the SQL adapter does). The outer test keeps a row whose expiry moved.
   */
  async function deleteExpiredBatch(name: string, now: Date, limit: number): Promise<number> {
    const table = name === sessions.name ? sessions : verificationTokens;
    const expired = lte(table.c('expires'), now.getTime());
    const row = sql.raw(dialect === 'postgres' ? 'ctid' : 'rowid');
    const picked = q.select({ row }).from(table.table).where(expired).limit(limit);
    const within = dialect === 'postgres' ? sql`${row} = any(array(${picked}))` : sql`${row} in ${picked}`;
    return deleteCount(table, and(within, expired));
  }

  /**
   * The exact number of sessions unexpired at `now`: one `COUNT(*)` over the expiry index, or on SQLite one per
   * slice of it with the event loop running between them, as the SQL adapter counts (see sql/sliced-count.ts).
   */
  const countActive = async (now: Date): Promise<number> =>
    dialect === 'sqlite'
      ? countAfterInSlices(kysely, sessions.name, now.getTime())
      : ((
          await first<{ n: number }>(
            q
              .select({ n: count() })
              .from(sessions.table)
              .where(gt(sessions.c('expires'), now.getTime())),
          )
        )?.n ?? 0);
  const activeNow = cachedCount(() => countActive(new Date()));

  type Joined = { s: SessionRow; u: UserRow } | undefined;
  const found = (row: Joined): { session: AdapterSession; user: AdapterUser } | null =>
    row ? { session: codec.decodeSession(row.s), user: decodeUser(row.u) } : null;
  let readJoined!: (id: string) => Joined | Promise<Joined>;
  /**
   * The hot read, prepared once per users table: a session and its user by session id. On SQLite prepared on
   * first use (better-sqlite3 prepares against the tables, which migrate() may create first); on PostgreSQL
   * named after the field columns, so a name always means one statement text.
   */
  function prepareSessionRead(): void {
    const sessionRead = q
      .select({ s: sessions.selection, u: users.selection })
      .from(sessions.table)
      .innerJoin(users.table, eq(users.c('id'), sessions.c('user_id')))
      .where(eq(sessions.c('id'), sql.placeholder('id')));
    if (dialect === 'sqlite') {
      let prepared: { get(values: { id: string }): Joined } | undefined;
      readJoined = (id) => (prepared ??= sessionRead.prepare()).get({ id });
    } else {
      const name = [`${schema.prefix}fw_session_read`, ...fields.map((field) => field.column)].join('_');
      const prepared = sessionRead.prepare(name);
      readJoined = async (id) => ((await prepared.execute({ id })) as Joined[])[0];
    }
  }
  prepareSessionRead();

  /** Runs the statements `build(tx)` returns in one transaction (synchronous on better-sqlite3). */
  async function inTransaction(build: (tx: any) => { run(): unknown }[]): Promise<void> {
    if (dialect === 'sqlite') {
      q.transaction((tx: any) => {
        for (const statement of build(tx)) statement.run();
      });
      return;
    }
    await q.transaction(async (tx: any) => {
      for (const statement of build(tx)) await statement;
    });
  }

  const adapter: DrizzleStorageAdapter = {
    dialect,
    kysely,
    loadKysely: async () => kysely,
    async migrate() {
      await migrateToLatest(kysely, tableNames(schema.prefix), traits, dialect);
      await addMissingFieldColumns(kysely, users.name, fields, traits);
    },
    configureUserFields(given) {
      fields = given;
      users = given.length > 0 ? usersWithFields(dialect, schema.prefix, given) : tables.users;
      prepareSessionRead();
    },
    async close() {},

    async createUser(input) {
      const user = records.toUser(input.id ?? crypto.randomUUID(), input);
      const values = newUserFieldValues(input, fields);
      const row = { ...codec.encodeUser(user), ...encodeFieldColumns(values, fields, traits) };
      const insert = q.insert(users.table).values(users.values(row));
      await guard(Promise.resolve(insert), (violation) =>
        violation.includes('email_normalized') ? 'email' : (uniqueFieldOf(violation, fields, users.name) ?? 'id'),
      );
      return Object.assign(user, values);
    },
    async getUser(id) {
      const row = await first<UserRow>(selectFrom(users).where(eq(users.c('id'), id)));
      return row ? decodeUser(row) : null;
    },
    async getUserByEmail(email) {
      const row = await first<UserRow>(
        selectFrom(users).where(eq(users.c('email_normalized'), records.normalizeEmail(email))),
      );
      return row ? decodeUser(row) : null;
    },
    async getUserByAccount(key) {
      const row = await first<UserRow>(
        q
          .select(users.selection)
          .from(accounts.table)
          .innerJoin(users.table, eq(users.c('id'), accounts.c('user_id')))
          .where(byAccount(key)),
      );
      return row ? decodeUser(row) : null;
    },
    async updateUser(id, patch) {
      const row = {
        ...codec.encodeUserPatch(patch),
        ...encodeFieldColumns(patchedFieldValues(patch, fields), fields, traits),
      };
      if (Object.keys(row).length === 0) return adapter.getUser(id);
      const update = updateReturning<UserRow>(users, { ...row, ...bumpOnRoleChange(row) }, eq(users.c('id'), id));
      const updated = await guard(update, (violation) => uniqueFieldOf(violation, fields, users.name) ?? 'email');
      return updated ? decodeUser(updated) : null;
    },
    async deleteUser(id) {
      // Foreign keys cascade too; deleting explicitly also covers SQLite connections without `foreign_keys = ON`.
      await inTransaction((tx) => [
        ...[authenticators, sessions, accounts].map((table) =>
          tx.delete(table.table).where(eq(table.c('user_id'), id)),
        ),
        tx.delete(users.table).where(eq(users.c('id'), id)),
      ]);
    },
    async listUsers(query) {
      const { search, limit, after } = records.resolveListUsersQuery(query);
      if (search !== undefined) {
        // The page's ids in the search order from the SQL adapters' index-ordered search (sql/user-search.ts),
        // then their rows by primary key.
        const page = await sqlSearch.page<{ id: string }>(kysely, usersTable, search, limit, after, 'id');
        const ids = page.rows.map((row) => row.id);
        const rows: UserRow[] = ids.length ? await selectFrom(users).where(inArray(users.c('id'), ids)) : [];
        const byId = new Map(rows.map((row) => [row.id, row]));
        return { users: ids.flatMap((id) => (byId.has(id) ? [decodeUser(byId.get(id)!)] : [])), next: page.next };
      }
      const conditions: SQL[] = [];
      if (after !== undefined) conditions.push(gt(users.c('id'), after));
      const rows: UserRow[] = await selectFrom(users)
        .where(and(...conditions))
        .orderBy(users.c('id'))
        .limit(limit + 1);
      const page = rows.slice(0, limit).map(decodeUser);
      return { users: page, next: rows.length > limit ? page[page.length - 1]!.id : null };
    },
    async getSessionVersion(userId) {
      const row = await first<{ v: number | string }>(
        q
          .select({ v: users.c('session_version') })
          .from(users.table)
          .where(eq(users.c('id'), userId)),
      );
      return row ? Number(row.v) : null;
    },
    async bumpSessionVersion(userId) {
      const version = users.c('session_version');
      const row = await updateReturning<UserRow>(
        users,
        { session_version: sql`${version} + 1` },
        eq(users.c('id'), userId),
      );
      return row ? Number(row.session_version) : null;
    },

    async linkAccount(input) {
      const account = records.toAccount(input);
      await guard(
        Promise.resolve(q.insert(accounts.table).values(accounts.values(codec.encodeAccount(account)))),
        () => 'account',
      );
      return account;
    },
    async getAccount(key) {
      const row = await first<AccountRow>(selectFrom(accounts).where(byAccount(key)));
      return row ? codec.decodeAccount(row) : null;
    },
    async listAccounts(userId) {
      const rows: AccountRow[] = await selectFrom(accounts).where(eq(accounts.c('user_id'), userId));
      return rows.map(codec.decodeAccount);
    },
    async updateAccount(key, patch) {
      const row = codec.encodeAccountPatch(patch);
      if (Object.keys(row).length === 0) return adapter.getAccount(key);
      const updated = await updateReturning<AccountRow>(accounts, row, byAccount(key));
      return updated ? codec.decodeAccount(updated) : null;
    },
    async unlinkAccount(key) {
      await q.delete(accounts.table).where(byAccount(key));
    },

    async createSession(input) {
      const session = records.toSession(input);
      await guard(
        Promise.resolve(q.insert(sessions.table).values(sessions.values(codec.encodeSession(session)))),
        () => 'id',
      );
      return session;
    },
    async getSessionAndUser(id) {
      return found(await readJoined(id));
    },
    async updateSessionExpiry(id, expires, lastActiveAt) {
      const set = { expires: expires.getTime(), ...(lastActiveAt ? { last_active_at: lastActiveAt.getTime() } : {}) };
      const row = await updateReturning<SessionRow>(sessions, set, eq(sessions.c('id'), id));
      return row ? codec.decodeSession(row) : null;
    },
    async listSessions(userId) {
      const rows: SessionRow[] = await selectFrom(sessions).where(eq(sessions.c('user_id'), userId));
      return rows.map(codec.decodeSession);
    },
    countActiveSessions: (now) => (now ? countActive(now) : activeNow()),
    async deleteSession(id) {
      await q.delete(sessions.table).where(eq(sessions.c('id'), id));
    },
    deleteUserSessions: (userId) => deleteCount(sessions, eq(sessions.c('user_id'), userId)),
    async deleteExpiredSessions(now) {
      const { deleted } = await purgeInBatches(deleteExpiredBatch, [sessions.name], now, resolvePurgeOptions());
      return deleted[0]!;
    },
    purgeExpired: (now = new Date(), options) =>
      purgeExpiredRows(
        deleteExpiredBatch,
        { sessions: sessions.name, verificationTokens: verificationTokens.name },
        now,
        options,
      ),

    async createVerificationToken(input) {
      const token = records.toVerificationToken(input);
      const insert = q
        .insert(verificationTokens.table)
        .values(verificationTokens.values(codec.encodeVerificationToken(token)));
      await guard(Promise.resolve(insert), () => 'tokenHash');
      return token;
    },
    async useVerificationToken({ identifier, tokenHash }) {
      // One statement finds and deletes the row, so only one caller can get it.
      const row = await first<VerificationTokenRow>(
        q
          .delete(verificationTokens.table)
          .where(
            and(eq(verificationTokens.c('identifier'), identifier), eq(verificationTokens.c('token_hash'), tokenHash)),
          )
          .returning(verificationTokens.selection),
      );
      return row ? codec.decodeVerificationToken(row) : null;
    },
    deleteVerificationTokens: ({ identifier, expiresAfter }) =>
      // The primary key starts with the identifier: an index range, not a scan.
      deleteCount(
        verificationTokens,
        and(
          eq(verificationTokens.c('identifier'), identifier),
          expiresAfter ? gt(verificationTokens.c('expires'), expiresAfter.getTime()) : undefined,
        ),
      ),

    async createAuthenticator(input) {
      const authenticator = records.toAuthenticator(input);
      const row = authenticators.values(codec.encodeAuthenticator(authenticator, traits));
      await guard(Promise.resolve(q.insert(authenticators.table).values(row)), () => 'credentialId');
      return authenticator;
    },
    async getAuthenticator(credentialId) {
      const row = await first<AuthenticatorRow>(
        selectFrom(authenticators).where(eq(authenticators.c('credential_id'), credentialId)),
      );
      return row ? codec.decodeAuthenticator(row) : null;
    },
    async listAuthenticators(userId) {
      const rows: AuthenticatorRow[] = await selectFrom(authenticators).where(eq(authenticators.c('user_id'), userId));
      return rows.map(codec.decodeAuthenticator);
    },
    async updateAuthenticatorCounter(credentialId, counter) {
      const row = await updateReturning(
        authenticators,
        { counter },
        eq(authenticators.c('credential_id'), credentialId),
      );
      return row !== undefined;
    },
    async deleteAuthenticator(userId, credentialId) {
      const where = and(eq(authenticators.c('credential_id'), credentialId), eq(authenticators.c('user_id'), userId));
      return (await deleteCount(authenticators, where, 'credential_id')) > 0;
    },
  };
  // better-sqlite3 answers the prepared read synchronously: the request's session read then takes no tick.
  attachSessionReadNow(
    adapter,
    (id) => {
      const row = readJoined(id);
      return row instanceof Promise ? row.then(found) : found(row);
    },
    adapter.getSessionAndUser,
  );
  return adapter;
}
