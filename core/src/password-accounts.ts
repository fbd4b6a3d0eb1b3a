/**
 * Email + password accounts kept in the storage adapter: registration and a
 * ready-made `authorize` for the credentials provider that takes the same
 * time whether or not the user exists (OWASP ASVS V2.2: no account
 * enumeration through timing).
 * @module
 */
import { authError } from './errors/auth-error.js';
import { hashPassword, verifyPassword, MAX_PASSWORD_BYTES } from './password.js';
import { randomString } from './crypto.js';
import { parseDisplayName, parseEmailAddress, USER_NAME_MAX_LENGTH } from './input/text.js';
import { revokeUserSessions } from './session/revoke.js';
import { markStoredUser } from './storage/stored-user.js';
import { StorageConflictError, type AdapterUser, type StorageAdapter } from './storage/types.js';
import type { User } from './types.js';

/** Provider id under which password accounts are linked. */
export const PASSWORD_PROVIDER = 'credentials';

/** Options of {@link passwordAccounts}. */
export interface PasswordAccountsOptions {
  /** Minimum password length in characters. Default 8 (OWASP ASVS V2.1.1). */
  minLength?: number;
}

/** Input of {@link PasswordAccounts.register}. */
export interface RegisterInput {
  /** The new user's id; generated when absent. */
  id?: string;
  email: string;
  password: string;
  name?: string | null;
}

export interface PasswordAccounts {
  /**
   * Creates a user with a password (argon2id). The email is checked with
   * `parseEmailAddress` and stored trimmed and NFC, its case kept; lookups
   * are case-insensitive. The name
   * goes through `parseDisplayName` (at most 200 characters).
   * @throws AuthError `INVALID_REQUEST` (400) for a malformed email, a name
   *   or email with control, bidi or invisible characters, or a
   *   password outside 8–1024 bytes; `EMAIL_TAKEN` (409) when the email is
   *   registered already (the existing account is left untouched).
   */
  register(input: RegisterInput): Promise<AdapterUser>;
  /** An `authorize` for `credentials({...})` reading the `email` and `password` fields. */
  authorize(credentials: Record<string, string>): Promise<User | null>;
  /**
   * Sets or replaces a user's password (a password reset or change) and ends
   * every session of the user (OWASP ASVS V3.3.3): database sessions are
   * deleted, and the session version is bumped, so JWT sessions end at their
   * next check (within `session.revalidateAge`). Sign the user in again
   * afterwards if they should stay signed in (`auth.createSession`).
   * @throws AuthError `INVALID_REQUEST` (400) for a bad password or unknown user.
   */
  setPassword(userId: string, password: string): Promise<void>;
}

/**
 * Password accounts over a storage adapter.
 * @example
 * ```ts
 * const passwords = passwordAccounts(adapter);
 * await passwords.register({ email: 'ada@example.com', password: 'analytical-engine', name: 'Ada' });
 * const provider = credentials({
 *   credentials: { email: { label: 'Email', type: 'email', required: true }, password: { label: 'Password', type: 'password', required: true } },
 *   authorize: passwords.authorize,
 * });
 * ```
 */
export function passwordAccounts(adapter: StorageAdapter, options: PasswordAccountsOptions = {}): PasswordAccounts {
  const minLength = options.minLength ?? 8;
  let dummyHash: Promise<string> | undefined;
  const dummy = () => (dummyHash ??= hashPassword(randomString(24)));

  function checkPassword(password: unknown): string {
    if (typeof password !== 'string' || password.length < minLength) {
      throw authError('INVALID_REQUEST', `Password must be at least ${minLength} characters`);
    }
    if (new TextEncoder().encode(password).length > MAX_PASSWORD_BYTES) {
      throw authError('INVALID_REQUEST', `Password must be at most ${MAX_PASSWORD_BYTES} bytes`);
    }
    return password;
  }

  return {
    async register({ id, email, password, name }) {
      if (parseEmailAddress(email) === null) throw authError('INVALID_REQUEST', 'Enter a valid email address');
      // Case kept as given; NFC as parseEmailAddress, so later lookups by the parsed address find it.
      const address = email.trim().normalize('NFC');
      const displayName = parseDisplayName(name, { maxLength: USER_NAME_MAX_LENGTH });
      const passwordHash = await hashPassword(checkPassword(password));
      let user: AdapterUser;
      try {
        user = await adapter.createUser({
          ...(id ? { id } : {}),
          email: address,
          name: displayName,
          emailVerified: null,
        });
      } catch (e) {
        if (e instanceof StorageConflictError) {
          throw authError('EMAIL_TAKEN');
        }
        throw e;
      }
      try {
        await adapter.linkAccount({
          userId: user.id,
          type: 'credentials',
          provider: PASSWORD_PROVIDER,
          providerAccountId: user.id,
          passwordHash,
        });
      } catch (e) {
        await adapter.deleteUser(user.id);
        throw e;
      }
      return user;
    },

    async authorize(credentials) {
      const email = parseEmailAddress(credentials.email);
      const password = typeof credentials.password === 'string' ? credentials.password : '';
      const user = email ? await adapter.getUserByEmail(email) : null;
      const account = user
        ? await adapter.getAccount({ provider: PASSWORD_PROVIDER, providerAccountId: user.id })
        : null;
      // Always run one argon2 verification, against a dummy hash when there is no stored one.
      const ok = await verifyPassword(password, account?.passwordHash ?? (await dummy()));
      // Marked as read from this storage, so the sign-in that receives it back does not read it again.
      return ok && user && account?.passwordHash ? markStoredUser(user, adapter) : null;
    },

    async setPassword(userId, password) {
      const passwordHash = await hashPassword(checkPassword(password));
      const key = { provider: PASSWORD_PROVIDER, providerAccountId: userId };
      if (await adapter.getAccount(key)) {
        await adapter.updateAccount(key, { passwordHash });
      } else {
        if (!(await adapter.getUser(userId))) throw authError('INVALID_REQUEST', 'Unknown user');
        await adapter.linkAccount({
          userId,
          type: 'credentials',
          provider: PASSWORD_PROVIDER,
          providerAccountId: userId,
          passwordHash,
        });
      }
      await revokeUserSessions(adapter, userId);
    },
  };
}
