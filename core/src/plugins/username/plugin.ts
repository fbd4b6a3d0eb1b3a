/**
 * `username()`: sign in with a username and password; usernames unique after folding (NFKC, case).
 * @module
 */
import { AuthConfigError, endpoint, type AuthPlugin, type ErrorCodesOf } from '../../plugin-kit.js';
import { USERNAME_ERRORS } from './errors.js';
import { resolveUsernameOptions, type UsernameOptions } from './options.js';
import { signInForm } from './pages.js';
import { usernameHooks, usernameRoutes, usernameSignUpField } from './routes.js';
import type { UsernameStorage } from './storage/types.js';

/** `auth.extensions.username`. */
export interface UsernameExtension {
  /** Where usernames live. */
  readonly storage: UsernameStorage;
}

/** The answer of `POST /username/update`. */
export interface UsernameUpdated {
  ok: true;
  username: string;
  displayUsername: string;
}

/** The plugin's routes on `auth.api`. */
export const USERNAME_API = {
  /** `POST /username/sign-in`: `{ok, url}` and the session cookie (`returnHeaders: true` to forward it). */
  signInUsername: endpoint<{ username: string; password: string; callbackUrl?: string }, { ok: true; url: string }>(
    'POST',
    'username/sign-in',
  ),
  /** `POST /username/available`: whether the name is free (or the caller's own). */
  isUsernameAvailable: endpoint<{ username: string }, { available: boolean; username: string }>(
    'POST',
    'username/available',
  ),
  /** `POST /username/update`: sets or changes the signed-in user's username. */
  updateUsername: endpoint<{ username: string }, UsernameUpdated>('POST', 'username/update'),
  /** `GET /username`: the signed-in user's username. */
  getUsername: endpoint<void, { username: string | null; displayUsername: string | null }>('GET', 'username'),
};

/**
 * Usernames beside email + password accounts. Each user may hold one username: `username` is the unique key (the
 * name as typed, trimmed, Unicode NFKC then lower case, then `normalize`), `displayUsername` the name as typed.
 * Names with invisible, format, control or space characters (U+200B, U+2060, U+FEFF, bidi controls…) are refused,
 * as are names mixing look-alike scripts (Latin `a` beside Cyrillic `а`); by default only `a`–`z`, `0`–`9`, `_` and
 * `.` are allowed after folding, so no look-alike of an ASCII name can be registered (`validator` replaces that
 * rule). Storage: the plugin's own table keyed by the folded name (a primary key: unique on every adapter), in the
 * auth adapter's database unless `storage` is given. Routes under `basePath` (POSTs CSRF-checked):
 *
 * - `POST /username/sign-in {username, password, callbackUrl?}`: the password check of `emailAndPassword()` with a
 *   username: one argon2 verification whatever the name (401 `INVALID_CREDENTIALS` alike for an unknown name and a
 *   wrong password), counted on the login limiter per IP and per account (its email, so lockouts are shared with
 *   email sign-in), ending in `completeSignIn`. No-JS form on the default sign-in page.
 * - `POST /signup` with `username` (a sign-up field: the default sign-up page has a Username input): the name is
 *   checked and held before the account is made (400 `USERNAME_INVALID`, 409 `USERNAME_TAKEN`; the no-JS page shows
 *   the form again with the error and what was typed); the new account gets it.
 * - `GET|POST /username/available` (`username`): `{available, username}`; counted per IP (the `emailVerification`
 *   limiter, default the login limiter; `rateLimit.rules['/username/available']` replaces it), so names cannot be
 *   listed.
 * - `GET /username` (signed in): `{username, displayUsername}`.
 * - `GET|POST /username/update` (`username`; signed in, not an impersonation): the settings page; sets or changes
 *   the name (400 `USERNAME_INVALID`, 409 `USERNAME_TAKEN`).
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) for bad options; at `createAuth`, without an `adapter` that is SQL or
 *   memory (unless `storage` is given).
 * @example
 * ```ts
 * import { createAuth, createMemoryAdapter } from '@framework/auth';
 * import { username } from '@framework/auth/plugins/username';
 *
 * const auth = createAuth({
 *   adapter: createMemoryAdapter(),
 *   providers: [],
 *   emailAndPassword: {},
 *   plugins: [username({ minLength: 3, maxLength: 30 })],
 * });
 * // POST /auth/signup {email, password, username: 'Ada'}, then POST /auth/username/sign-in {username: 'ada', password}
 * const { available } = await auth.api.isUsernameAvailable({ username: 'ada' }); // false
 * ```
 */
export function username(
  options: UsernameOptions = {},
): AuthPlugin<'username', UsernameExtension, typeof USERNAME_API, ErrorCodesOf<typeof USERNAME_ERRORS>> {
  const o = resolveUsernameOptions(options);
  return {
    id: 'username',
    errorCodes: USERNAME_ERRORS,
    init(auth) {
      if (!auth.adapter)
        throw new AuthConfigError('Invalid auth config: username() needs `adapter` (users and passwords are stored)');
      o.storage.bind(auth.adapter);
      return { storage: o.storage.storage };
    },
    routes: usernameRoutes(o),
    hooks: usernameHooks(o),
    signUpFields: [usernameSignUpField(o)],
    api: USERNAME_API,
    signInMethods: [
      {
        id: 'username',
        name: 'Username',
        type: 'username',
        urls: { signInUrl: '/username/sign-in', availableUrl: '/username/available' },
        signInForm,
      },
    ],
    migrate: () => o.storage.storage.migrate(),
  };
}
