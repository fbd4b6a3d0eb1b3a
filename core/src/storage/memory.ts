/**
 * An in-process storage adapter over `Map`s: for tests, demos and single
 * process apps that may lose their data on restart.
 * @module
 */
import {
  definedEntries,
  normalizeEmail,
  resolveListUsersQuery,
  toAccount,
  toAuthenticator,
  toSession,
  toUser as toCoreUser,
  toVerificationToken,
} from './records.js';
import type { UserField } from '../user-fields/definitions.js';
import {
  addMissingFieldValues,
  copyFieldValues,
  newUserFieldValues,
  patchedFieldValues,
} from '../user-fields/records.js';
import { checkUniqueFields } from '../user-fields/memory.js';
import { resolvePurgeOptions } from './sql/purge.js';
import { compareSearchMatches, decodeSearchCursor, encodeSearchCursor, searchMatch } from './search-order.js';
import {
  StorageConflictError,
  type AdapterAccount,
  type AdapterSession,
  type AdapterUser,
  type Authenticator,
  type StorageAdapter,
  type UserPage,
  type VerificationToken,
} from './types.js';

type AccountKey = { provider: string; providerAccountId: string };

/** A collision-free map key for a pair of strings. */
const pairKey = (a: string, b: string): string => JSON.stringify([a, b]);
const accountKey = (key: AccountKey): string => pairKey(key.provider, key.providerAccountId);

/** Deletes the entries of `map` whose value matches; returns how many. */
function deleteWhere<V>(map: Map<string, V>, match: (value: V) => boolean): number {
  let count = 0;
  for (const [key, value] of map) {
    if (match(value)) {
      map.delete(key);
      count++;
    }
  }
  return count;
}

/** Whether `role` or `roles` differ between two versions of a user. */
function rolesChanged(before: AdapterUser, after: AdapterUser): boolean {
  return before.role !== after.role || JSON.stringify(before.roles) !== JSON.stringify(after.roles);
}

/**
 * Creates a storage adapter that keeps everything in memory, in `Map`s owned
 * by the returned object. Data is lost when the process ends.
 *
 * It behaves like the SQL adapters (it passes the same conformance suite):
 * emails are unique case-insensitively, `deleteUser` removes the user's
 * accounts, sessions and authenticators, `useVerificationToken` is atomic, and
 * every row is copied on the way in and out, so callers cannot change stored
 * data by mutating objects.
 *
 * Methods reject with {@link StorageConflictError} (`code: 'CONFLICT'`) on a
 * taken unique field, and with a plain `Error` when a row references a user
 * that does not exist. `close()` does nothing; `migrate()` only gives stored users the custom fields they lack
 *
 * @returns A {@link StorageAdapter}.
 * @example
 * ```ts
 * import { createAuth, createMemoryAdapter } from '@framework/auth';
 *
 * const auth = createAuth({ ...config, adapter: createMemoryAdapter() });
 * ```
 */
export function createMemoryAdapter(): StorageAdapter {
  const users = new Map<string, AdapterUser>();
  /** normalized email → user id */
  const emails = new Map<string, string>();
  const accounts = new Map<string, AdapterAccount>();
  const sessions = new Map<string, AdapterSession>();
  const tokens = new Map<string, VerificationToken>();
  const authenticators = new Map<string, Authenticator>();
  /** user id → session version (absent = 0) */
  const sessionVersions = new Map<string, number>();
  /** Custom user fields (`createAuth({ user: { additionalFields } })`). */
  let fields: readonly UserField[] = [];
  /** A user in canonical form, custom fields included. */
  const toUser = (id: string, input: Partial<AdapterUser>): AdapterUser =>
    Object.assign(toCoreUser(id, input), copyFieldValues(input, fields));

  const copyUser = (user: AdapterUser | undefined): AdapterUser | null => (user ? toUser(user.id, user) : null);

  function requireUser(userId: string): void {
    if (!users.has(userId)) throw new Error(`No user with id ${JSON.stringify(userId)}`);
  }

  /** Throws when `email` belongs to a user other than `ownerId`. */
  function checkEmailFree(email: string | null, ownerId: string): void {
    if (email == null) return;
    const holder = emails.get(normalizeEmail(email));
    if (holder !== undefined && holder !== ownerId) throw new StorageConflictError('Email is taken', 'email');
  }

  /** Stores `user`, keeping the email index in step with it. */
  /** A search page: anywhere in the email or name, prefix matches first, in the search order (search-order.ts). */
  function searchUsers(search: string, limit: number, after: string | undefined): UserPage {
    const from = after === undefined ? undefined : decodeSearchCursor(after);
    const page = [...users.values()]
      .map((user) => {
        const email = user.email == null ? null : normalizeEmail(user.email);
        const match = searchMatch(email, user.name?.toLowerCase() ?? null, search, true);
        return { user, phase: match?.phase ?? 1, key: match?.key ?? '', id: user.id, matched: match !== undefined };
      })
      .filter((match) => match.matched && (from === undefined || compareSearchMatches(match, from) > 0))
      .sort(compareSearchMatches)
      .slice(0, limit + 1);
    const out = page.slice(0, limit);
    const last = out[out.length - 1];
    return {
      users: out.map(({ user }) => toUser(user.id, user)),
      next: page.length > limit && last ? encodeSearchCursor(last) : null,
    };
  }

  function putUser(user: AdapterUser, previous?: AdapterUser): void {
    if (previous?.email != null) emails.delete(normalizeEmail(previous.email));
    if (user.email != null) emails.set(normalizeEmail(user.email), user.id);
    users.set(user.id, user);
  }

  return {
    kind: 'memory',
    async migrate() {
      for (const user of users.values()) addMissingFieldValues(user, fields);
    },
    async close() {},
    configureUserFields(given) {
      fields = given;
    },

    async createUser(input) {
      const id = input.id ?? crypto.randomUUID();
      if (users.has(id)) throw new StorageConflictError('User id is taken', 'id');
      const user = toUser(id, { ...input, ...newUserFieldValues(input, fields) });
      checkEmailFree(user.email, id);
      checkUniqueFields(users.values(), user, fields);
      putUser(user);
      return toUser(id, user);
    },
    async getUser(id) {
      return copyUser(users.get(id));
    },
    async getUserByEmail(email) {
      const id = emails.get(normalizeEmail(email));
      return id === undefined ? null : copyUser(users.get(id));
    },
    async getUserByAccount(key) {
      const account = accounts.get(accountKey(key));
      return account ? copyUser(users.get(account.userId)) : null;
    },
    async updateUser(id, patch) {
      const previous = users.get(id);
      if (!previous) return null;
      const merged: Record<string, unknown> = { ...previous };
      for (const [field, value] of definedEntries(patch)) merged[field] = value;
      const user = toUser(id, { ...merged, ...patchedFieldValues(patch, fields) } as Partial<AdapterUser>);
      checkEmailFree(user.email, id);
      checkUniqueFields(users.values(), user, fields);
      putUser(user, previous);
      if (rolesChanged(previous, user)) sessionVersions.set(id, (sessionVersions.get(id) ?? 0) + 1);
      return toUser(id, user);
    },
    async deleteUser(id) {
      const user = users.get(id);
      if (!user) return;
      const owned = (row: { userId: string }) => row.userId === id;
      deleteWhere(accounts, owned);
      deleteWhere(sessions, owned);
      deleteWhere(authenticators, owned);
      if (user.email != null) emails.delete(normalizeEmail(user.email));
      users.delete(id);
      sessionVersions.delete(id);
    },
    async listUsers(query) {
      const { search, limit, after } = resolveListUsersQuery(query);
      if (search !== undefined) return searchUsers(search, limit, after);
      const page = [...users.values()]
        .filter((u) => after === undefined || u.id > after)
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .slice(0, limit + 1);
      const more = page.length > limit;
      const out = page.slice(0, limit).map((u) => toUser(u.id, u));
      return { users: out, next: more ? out[out.length - 1]!.id : null };
    },
    async getSessionVersion(userId) {
      return users.has(userId) ? (sessionVersions.get(userId) ?? 0) : null;
    },
    async bumpSessionVersion(userId) {
      if (!users.has(userId)) return null;
      const version = (sessionVersions.get(userId) ?? 0) + 1;
      sessionVersions.set(userId, version);
      return version;
    },

    async linkAccount(input) {
      requireUser(input.userId);
      const key = accountKey(input);
      if (accounts.has(key)) throw new StorageConflictError('Account is linked already', 'account');
      const account = toAccount(input);
      accounts.set(key, account);
      return toAccount(account);
    },
    async getAccount(key) {
      const account = accounts.get(accountKey(key));
      return account ? toAccount(account) : null;
    },
    async listAccounts(userId) {
      return [...accounts.values()].filter((a) => a.userId === userId).map(toAccount);
    },
    async updateAccount(key, patch) {
      const previous = accounts.get(accountKey(key));
      if (!previous) return null;
      const merged: Record<string, unknown> = { ...previous };
      for (const [field, value] of definedEntries(patch)) merged[field] = value;
      const { provider, providerAccountId, userId, type } = previous;
      const account = toAccount({
        ...(merged as unknown as AdapterAccount),
        provider,
        providerAccountId,
        userId,
        type,
      });
      accounts.set(accountKey(key), account);
      return toAccount(account);
    },
    async unlinkAccount(key) {
      accounts.delete(accountKey(key));
    },

    async createSession(input) {
      requireUser(input.userId);
      if (sessions.has(input.id)) throw new StorageConflictError('Session id is taken', 'id');
      const session = toSession(input);
      sessions.set(session.id, session);
      return toSession(session);
    },
    async getSessionAndUser(id) {
      const session = sessions.get(id);
      const user = session && users.get(session.userId);
      return session && user ? { session: toSession(session), user: toUser(user.id, user) } : null;
    },
    async updateSessionExpiry(id, expires, lastActiveAt) {
      const previous = sessions.get(id);
      if (!previous) return null;
      const session = toSession({ ...previous, expires, ...(lastActiveAt ? { lastActiveAt } : {}) });
      sessions.set(id, session);
      return toSession(session);
    },
    async listSessions(userId) {
      return [...sessions.values()].filter((s) => s.userId === userId).map(toSession);
    },
    async deleteSession(id) {
      sessions.delete(id);
    },
    async deleteUserSessions(userId) {
      return deleteWhere(sessions, (s) => s.userId === userId);
    },
    async countActiveSessions(now = new Date()) {
      let n = 0;
      for (const s of sessions.values()) if (s.expires > now) n++;
      return n;
    },
    async deleteExpiredSessions(now) {
      const limit = now.getTime();
      return deleteWhere(sessions, (s) => s.expires.getTime() <= limit);
    },
    async purgeExpired(now = new Date(), options) {
      resolvePurgeOptions(options); // Same checks as the SQL adapters; no batches needed in memory.
      const limit = now.getTime();
      const expired = (row: { expires: Date }) => row.expires.getTime() <= limit;
      return {
        sessions: deleteWhere(sessions, expired),
        verificationTokens: deleteWhere(tokens, expired),
        more: false,
      };
    },

    async createVerificationToken(input) {
      const key = pairKey(input.identifier, input.tokenHash);
      if (tokens.has(key)) throw new StorageConflictError('Verification token exists already', 'tokenHash');
      const token = toVerificationToken(input);
      tokens.set(key, token);
      return toVerificationToken(token);
    },
    async useVerificationToken({ identifier, tokenHash }) {
      // Read and delete with no await in between: atomic on the event loop.
      const key = pairKey(identifier, tokenHash);
      const token = tokens.get(key);
      if (!token) return null;
      tokens.delete(key);
      return token;
    },
    async deleteVerificationTokens({ identifier, expiresAfter }) {
      let deleted = 0;
      for (const [key, token] of tokens) {
        if (token.identifier !== identifier) continue;
        if (expiresAfter && token.expires.getTime() <= expiresAfter.getTime()) continue;
        tokens.delete(key);
        deleted++;
      }
      return deleted;
    },

    async createAuthenticator(input) {
      requireUser(input.userId);
      if (authenticators.has(input.credentialId)) {
        throw new StorageConflictError('Credential id is registered already', 'credentialId');
      }
      const authenticator = toAuthenticator(input);
      authenticators.set(authenticator.credentialId, authenticator);
      return toAuthenticator(authenticator);
    },
    async getAuthenticator(credentialId) {
      const authenticator = authenticators.get(credentialId);
      return authenticator ? toAuthenticator(authenticator) : null;
    },
    async listAuthenticators(userId) {
      return [...authenticators.values()].filter((a) => a.userId === userId).map(toAuthenticator);
    },
    async updateAuthenticatorCounter(credentialId, counter) {
      const authenticator = authenticators.get(credentialId);
      if (!authenticator) return false;
      authenticator.counter = counter;
      return true;
    },
    async deleteAuthenticator(userId, credentialId) {
      const authenticator = authenticators.get(credentialId);
      if (authenticator?.userId !== userId) return false;
      return authenticators.delete(credentialId);
    },
  };
}
