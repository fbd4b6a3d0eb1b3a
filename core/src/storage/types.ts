/**
 * The storage adapter interface: one contract for users, accounts, sessions,
 * verification tokens and passkey credentials. Every implementation
 * (memory, Kysely over SQLite or PostgreSQL) passes the same conformance
 * suite (`core/src/storage/conformance.ts`).
 *
 * Times are `Date` objects at this boundary, kept to the millisecond;
 * implementations choose how to store them. Secrets are never stored in clear: sessions and verification
 * tokens carry a SHA-256 hash (hex) of their secret part.
 * @module
 */
import type { Kysely } from 'kysely';
import type { Account, User } from '../types.js';
import { isBranded, markBranded } from '../brand.js';
import type { UserField } from '../user-fields/definitions.js';

/** A user as stored. */
export interface AdapterUser extends User {
  id: string;
  email: string | null;
  name: string | null;
  image: string | null;
  emailVerified: Date | null;
}

/** Fields accepted by {@link StorageAdapter.createUser}. `id` is generated when missing. */
export type NewUser = Partial<Omit<AdapterUser, 'id'>> & { id?: string };

/** An account row: a sign-in method of a user. */
export interface AdapterAccount extends Account {
  userId: string;
  /** PHC-format password hash, for `credentials` accounts only. */
  passwordHash?: string | null;
}

/** A database session row. The cookie holds `id.secret`; only SHA-256(secret) is stored. */
export interface AdapterSession {
  id: string;
  /** Lower-case hex SHA-256 of the session secret. */
  tokenHash: string;
  userId: string;
  expires: Date;
  /** When the session was issued: the sign-in time (a sliding refresh keeps it). */
  createdAt: Date;
  /** The `User-Agent` of the sign-in request (at most 512 characters). Absent when unknown. */
  userAgent?: string;
  /** The client IP address of the sign-in request, as the server adapter saw it. Absent when unknown. */
  ip?: string;
  /**
   * When the session was last used, kept coarse: the `database` strategy
   * records it at issue and then at most once per activity interval (see
   * `databaseStrategy`), so reads rarely write. Absent on rows stored before
   * it existed (read it as `createdAt`).
   */
  lastActiveAt?: Date;
  /**
   * The id of the admin who started this session to act as `userId`
   * (`admin()` impersonation, RFC 8693's actor). Absent on ordinary sessions.
   */
  impersonatedBy?: string;
}

/** A page query of {@link StorageAdapter.listUsers}. */
export interface ListUsersQuery {
  /**
   * Case-insensitive text of the email or the name (`%`, `_` and `\` are literal), matched through an index:
   * by prefix on SQLite and D1 (and on PostgreSQL without `pg_trgm`), anywhere on PostgreSQL with `pg_trgm` and
   * in memory; with `@`, the email only (SQL adapters). See the admin plugin's README, "Search". Default: every user.
   */
  search?: string;
  /** Users per page, 1–100. Default 20. */
  limit?: number;
  /** The `next` cursor of the previous page of the same query; absent for the first page. */
  after?: string;
}

/**
 * One page of users: in ascending `id` order, or with a `search` in the search order (see
 * {@link StorageAdapter.listUsers}).
 */
export interface UserPage {
  users: AdapterUser[];
  /**
   * The cursor of the next page, or null on the last page. Keyset: the last id of this page, or with a `search`
   * an opaque string (the last user's key and id) to pass back as `after` with the same search.
   */
  next: string | null;
}

/** A single-use token (email sign-in, password reset). Only its hash is stored. */
export interface VerificationToken {
  /** Who the token was sent to (an email address). */
  identifier: string;
  /** Lower-case hex SHA-256 of the token. */
  tokenHash: string;
  expires: Date;
}

/** A WebAuthn credential (passkey), as registered by `@simplewebauthn/server`. */
export interface Authenticator {
  /** Base64url credential id. */
  credentialId: string;
  userId: string;
  /** Base64url COSE public key. */
  publicKey: string;
  /** Signature counter (WebAuthn §6.1.1). */
  counter: number;
  /** Transports reported at registration, e.g. `internal`, `usb`. */
  transports: string[];
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
  /** A label the user chose. */
  name: string | null;
  createdAt: Date;
}

/** What {@link StorageAdapter.purgeExpired} deleted. */
export interface PurgeResult {
  /** Expired database sessions. */
  sessions: number;
  /** Expired verification tokens, passkey challenges included. */
  verificationTokens: number;
  /**
   * True when the call stopped at its `budgetMs` with expired rows left: call
   * again to continue. False (or absent, for adapters that delete in one go)
   * when nothing expired by `now` remains. Adapters of this package always set it.
   */
  more?: boolean;
}

/** How {@link StorageAdapter.purgeExpired} paces itself. */
export interface PurgeOptions {
  /**
   * The most rows one statement deletes, 1 to 10 000. Default 5 000. Statements start at 500 rows (or this, if
   * less) and are sized by time: one that took longer than about 20 ms scales the next down in proportion, one
   * that took under 5 ms doubles it (up to this ceiling), so a synchronous driver (SQLite) never blocks the event
   * loop for long whatever the table size. Between batches the adapter yields to the event loop, so requests
   * keep being served.
   * @throws TypeError when not an integer in range.
   */
  batchSize?: number;
  /**
   * Milliseconds after which no new batch starts; the result then says
   * `more: true` when rows remain, and the next call continues. Default:
   * no limit (run until nothing expired remains).
   * @throws TypeError when negative or not a number.
   */
  budgetMs?: number;
}

/** Thrown by adapters when a unique field (user email, account key, credential id) is taken. */
export class StorageConflictError extends Error {
  /** The name every copy of the package brands this class with (cross-copy `instanceof`). */
  static readonly brand: string = '@framework/auth.StorageConflictError';
  /** `instanceof` that also holds for an adapter built against another copy of `@framework/auth`. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBranded(value, this);
  }
  readonly code = 'CONFLICT' as const;
  constructor(
    message: string,
    /** The field that collided, e.g. `email`. */
    readonly field: string,
  ) {
    super(message);
    this.name = 'StorageConflictError';
    markBranded(this, new.target);
  }
}

/**
 * The storage contract the auth core needs. All methods are async; "not found"
 * is `null` (or a no-op for deletes), never a throw. Emails are compared
 * case-insensitively (stored as given, matched by `String#toLowerCase()`).
 *
 * Conventions shared by every implementation (checked by the conformance suite):
 * - Every returned object is a fresh copy: mutating it never changes stored data.
 * - In patches, a key whose value is `undefined` is left unchanged; `null`
 *   clears a nullable field.
 * - Optional fields that are absent or `null` (`role`, `roles`, the token
 *   fields of an account, `passwordHash`, a session's `userAgent`, `ip` and
 *   `lastActiveAt`) come back absent.
 * - Lists (`listAccounts`, `listAuthenticators`, `listSessions`) have no guaranteed order.
 * - Rows that reference a user (`linkAccount`, `createSession`,
 *   `createAuthenticator`) are rejected when that user does not exist.
 * - Strings may hold any Unicode text except U+0000 (PostgreSQL cannot store it).
 */
export interface StorageAdapter {
  /**
   * A Kysely handle over the adapter's own connection (the SQL, SQLite, PostgreSQL, MySQL, D1 and Drizzle
   * adapters): plugins given no `storage` keep their tables in the same database through it. Read-only: do not
   * destroy it (`close()` closes the connection). Absent on non-SQL adapters. The SQL adapters of the index
   * (`createSqliteAdapter`, `createPostgresAdapter`, `createMysqlAdapter`, `createD1Adapter`, `createSqlAdapter`)
   * load Kysely after they are created, so it is undefined until that load ends: use {@link loadKysely}.
   */
  readonly kysely?: Kysely<any>;
  /**
   * Resolves to {@link kysely} once Kysely has loaded (at once when it has). Every SQL adapter of this package
   * has it; absent on non-SQL adapters. Plugins get it through the plugin kit's `adapterStorage`.
   * @example
   * ```ts
   * const db = await adapter.loadKysely?.();
   * ```
   */
  loadKysely?(): Promise<Kysely<any>>;
  /** `'memory'` on `createMemoryAdapter()`: plugins given no `storage` then keep theirs in memory too. */
  readonly kind?: 'memory';
  /** Creates or upgrades the schema. Idempotent: safe to call on every start. */
  migrate(): Promise<void>;
  /** Releases connections. */
  close?(): Promise<void>;
  /**
   * Custom user fields (`createAuth({ user: { additionalFields } })`), called by `createAuth` before any other
   * call when fields are configured: the adapter then stores each as a column (`migrate()` adds missing ones),
   * returns them on every user (`null` when unset; `Date` for dates), fills defaults on `createUser`, and
   * rejects values of the wrong type (`TypeError`) and taken unique values (`StorageConflictError` with
   * `field` = the field's name). Without this method, `createAuth` refuses `additionalFields`
   * (`INVALID_CONFIG`). Every adapter of this package has it.
   */
  configureUserFields?(fields: readonly UserField[]): void;

  /** @throws StorageConflictError (`field: 'email'`) when the email is taken, (`field: 'id'`) when the id is. */
  createUser(user: NewUser): Promise<AdapterUser>;
  getUser(id: string): Promise<AdapterUser | null>;
  getUserByEmail(email: string): Promise<AdapterUser | null>;
  getUserByAccount(key: { provider: string; providerAccountId: string }): Promise<AdapterUser | null>;
  /**
   * Returns the updated user, or null when no such user exists. A patch that
   * changes `role` or `roles` also bumps the user's session version (see
   * {@link StorageAdapter.bumpSessionVersion}), so JWT sessions carrying the
   * old role end. @throws StorageConflictError on a taken email.
   */
  updateUser(id: string, patch: Partial<Omit<AdapterUser, 'id'>>): Promise<AdapterUser | null>;
  /** Deletes the user with their accounts, sessions and authenticators. */
  deleteUser(id: string): Promise<void>;
  /**
   * One page of users in ascending `id` order (keyset pagination: the query
   * costs the same on page 1 and page 1,000), optionally filtered by a
   * case-insensitive search of the email or name ({@link ListUsersQuery.search}). Used by `admin()`.
   * Search results come in the search order instead: by the matched key (the normalized email or the
   * lower-cased name, whichever matches; the smaller, compared by code point, when both do; the email on a tie),
   * then by id. The SQL adapters then read the searched index in order from the cursor, so a page of a prefix
   * matching a hundred thousand users reads about `limit` entries instead of sorting every match.
   * Optional for third-party adapters; every adapter of this package has it.
   * @example
   * ```ts
   * let page = await adapter.listUsers!({ search: 'ada', limit: 50 });
   * while (page.next) page = await adapter.listUsers!({ search: 'ada', limit: 50, after: page.next });
   * ```
   */
  listUsers?(query: ListUsersQuery): Promise<UserPage>;
  /**
   * The user's session version: a counter, 0 for a new user, that JWT
   * sessions carry (claim `sv`) and are checked against. Null when no such user exists.
   */
  getSessionVersion(userId: string): Promise<number | null>;
  /**
   * Increments the user's session version, so every JWT session issued before
   * ends at its next check (sign-out everywhere, password reset). Atomic.
   * Returns the new version, or null when no such user exists.
   */
  bumpSessionVersion(userId: string): Promise<number | null>;

  /** @throws StorageConflictError (`field: 'account'`) when provider+providerAccountId is linked already. */
  linkAccount(account: AdapterAccount): Promise<AdapterAccount>;
  getAccount(key: { provider: string; providerAccountId: string }): Promise<AdapterAccount | null>;
  listAccounts(userId: string): Promise<AdapterAccount[]>;
  /** Updates token fields (refresh). Returns null when the account does not exist. */
  updateAccount(
    key: { provider: string; providerAccountId: string },
    patch: Partial<Omit<AdapterAccount, 'provider' | 'providerAccountId' | 'userId' | 'type'>>,
  ): Promise<AdapterAccount | null>;
  unlinkAccount(key: { provider: string; providerAccountId: string }): Promise<void>;

  /** @throws StorageConflictError (`field: 'id'`) on a duplicate session id. */
  createSession(session: AdapterSession): Promise<AdapterSession>;
  /** The session with its user, or null. Expired rows are returned as they are: the caller decides. */
  getSessionAndUser(id: string): Promise<{ session: AdapterSession; user: AdapterUser } | null>;
  /**
   * Sets a new expiry and, when given, a new `lastActiveAt`. Returns null
   * when the session does not exist.
   */
  updateSessionExpiry(id: string, expires: Date, lastActiveAt?: Date): Promise<AdapterSession | null>;
  /**
   * Every session row of a user (the "signed-in devices" list), expired rows
   * included: the caller filters. No guaranteed order; `[]` for an unknown user.
   * @example
   * ```ts
   * const live = (await adapter.listSessions(user.id)).filter((s) => s.expires > new Date());
   * ```
   */
  listSessions(userId: string): Promise<AdapterSession[]>;
  deleteSession(id: string): Promise<void>;
  /** Deletes every session of a user ("sign out everywhere"). Returns how many were deleted. */
  deleteUserSessions(userId: string): Promise<number>;
  /**
   * How many database sessions are unexpired at `now`, for dashboards. Optional for third-party adapters; every
   * adapter of this package has it. Without `now`, the SQL adapters answer from a count they read at most once
   * a minute (the first call reads it; later calls get it back and, after a minute, start one background
   * re-read), so a dashboard load does not count millions of index entries: an approximate, recent figure.
   * With `now`, the count is exact and read every time.
   */
  countActiveSessions?(now?: Date): Promise<number>;
  /** Deletes sessions whose expiry is at or before `now`. Returns how many were deleted. */
  deleteExpiredSessions(now: Date): Promise<number>;
  /**
   * Deletes every row whose expiry is at or before `now` (default: the
   * current time): database sessions and verification tokens (email sign-in
   * and password-reset tokens, passkey challenges). Run it on a schedule.
   * The SQL adapters delete in batches of about 20 ms each (at most
   * `options.batchSize` rows) and yield to the event loop between them; with `options.budgetMs` a call stops
   * starting batches after that long and reports `more: true`.
   * @returns how many rows of each kind were deleted, and whether more remain.
   * @throws TypeError on a malformed `options` (see {@link PurgeOptions}).
   * @example
   * ```ts
   * const { sessions, verificationTokens, more } = await adapter.purgeExpired(new Date(), { budgetMs: 30_000 });
   * ```
   */
  purgeExpired(now?: Date, options?: PurgeOptions): Promise<PurgeResult>;

  /** @throws StorageConflictError (`field: 'tokenHash'`) when identifier+tokenHash exists already. */
  createVerificationToken(token: VerificationToken): Promise<VerificationToken>;
  /**
   * Atomically consumes a token: returns it and deletes it in one step, so two
   * concurrent calls with the same token get one non-null result. Expired
   * tokens are returned too (and deleted): the caller checks `expires`.
   */
  useVerificationToken(key: { identifier: string; tokenHash: string }): Promise<VerificationToken | null>;
  /**
   * Deletes every token stored under exactly `identifier` (all of its token hashes), or only those expiring after
   * `expiresAfter` (tokens of one lifetime issued later than a given one). Withdraws the pending links of a kind
   * for one user at once (an email-change undo withdraws the later changes' links).
   * @returns how many tokens were deleted.
   * @example
   * ```ts
   * await adapter.deleteVerificationTokens({ identifier: `undo-email-change:${userId}`, expiresAfter: used.expires });
   * ```
   */
  deleteVerificationTokens(key: { identifier: string; expiresAfter?: Date }): Promise<number>;

  /** @throws StorageConflictError (`field: 'credentialId'`) on a duplicate id. */
  createAuthenticator(authenticator: Authenticator): Promise<Authenticator>;
  getAuthenticator(credentialId: string): Promise<Authenticator | null>;
  listAuthenticators(userId: string): Promise<Authenticator[]>;
  /** Returns false when the credential does not exist. */
  updateAuthenticatorCounter(credentialId: string, counter: number): Promise<boolean>;
  /** Deletes a credential only when it belongs to `userId`. Returns whether one was deleted. */
  deleteAuthenticator(userId: string, credentialId: string): Promise<boolean>;
}
