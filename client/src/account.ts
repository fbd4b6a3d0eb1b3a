/**
 * The account lifecycle helpers: sign-up, email verification, password
 * reset and change, email change, signed-in devices, unlinking a sign-in
 * method and deleting the account. One function per route under
 * `basePath`; each POST fetches a CSRF token first, as `signIn` does.
 * @module
 */
import { announce } from './events.js';
import { call, csrfToken, endpoint, errorCode } from './http.js';
import type { AuthClientOptions } from './types.js';

/**
 * What an account helper resolves to. It never rejects: a network failure
 * is `{ok: false, status: 0, error: 'FETCH_ERROR'}`. `T` is the answer's
 * data; `E` the error codes (`string`, or the server's codes on the actions
 * of `createAuthClient<typeof auth>()`: see `ResultErrorCode`).
 */
export interface AccountResult<T = Record<string, unknown>, E extends string = string> {
  /** True on a 2xx answer. */
  ok: boolean;
  /** HTTP status of the answer; 0 when the request could not be sent. */
  status: number;
  /**
   * The server's stable error code when `ok` is false, e.g.
   * `INVALID_CREDENTIALS`, `EMAIL_TAKEN`, `TOKEN_INVALID`, `LAST_CREDENTIAL`,
   * `SESSION_NOT_FRESH`, `NOT_SUPPORTED`, `RATE_LIMITED`, `FETCH_ERROR`.
   */
  error?: E;
  /** The JSON answer when `ok` is true. */
  data?: T;
}

/** One signed-in session, as `GET {basePath}/sessions` lists it. Times are ISO 8601 strings. */
export interface SessionInfo {
  /** Public id of the session (never its secret): what {@link revokeSession} takes. */
  id: string;
  createdAt: string;
  lastActiveAt: string;
  expires: string;
  userAgent: string | null;
  ip: string | null;
  /** True for this browser's own session. */
  current: boolean;
}

/**
 * Sends one request to a route under `basePath`: a POST with `body` (and a
 * fresh CSRF token), or a GET without. After a successful POST that
 * `changes` the session, stores in this page are refreshed (awaited) and
 * other tabs are told. Never rejects (see {@link AccountResult}). Plugins'
 * client parts are built on it.
 * @example
 * ```ts
 * const { ok, data } = await authRequest<{ enabled: boolean }>('/two-factor');
 * ```
 */
export async function authRequest<T = Record<string, unknown>>(
  path: string,
  options: AuthClientOptions | undefined,
  body?: object,
  changes?: boolean,
): Promise<AccountResult<T>> {
  const ep = endpoint(options);
  let answer;
  try {
    answer = await call(ep, path, body && { ...body, csrfToken: await csrfToken(ep) });
  } catch {
    return { ok: false, status: 0, error: 'FETCH_ERROR' };
  }
  if (!answer.ok) return { ok: false, status: answer.status, error: errorCode(answer) };
  if (changes) await announce(ep);
  return { ok: true, status: answer.status, data: answer.data as T };
}

const send = authRequest;

/**
 * Creates an account: `POST {basePath}/signup`. When the server signs the
 * new user in (`autoSignIn`, no verification required), the store refreshes.
 * @returns errors `EMAIL_TAKEN` (409), `INVALID_REQUEST` (400) among others.
 * @example
 * ```ts
 * const { ok, error } = await signUp({ email: 'ada@example.com', password: 'analytical-engine', name: 'Ada' });
 * ```
 */
export const signUp = (
  input: { email: string; password: string; name?: string; callbackUrl?: string },
  options?: AuthClientOptions,
) => send('/signup', options, input, true);

/**
 * Sends the verification mail again: `POST {basePath}/verify-email/send`,
 * for the signed-in user or for `email`. The answer is neutral.
 * @example
 * ```ts
 * await sendVerificationEmail({ email: 'ada@example.com' });
 * ```
 */
export const sendVerificationEmail = (input?: { email?: string }, options?: AuthClientOptions) =>
  send('/verify-email/send', options, input ?? {});

/**
 * Asks for a password-reset link: `POST {basePath}/password/forgot`. The
 * answer is the same for known and unknown addresses.
 * @example
 * ```ts
 * await requestPasswordReset({ email: 'ada@example.com' });
 * ```
 */
export const requestPasswordReset = (input: { email: string }, options?: AuthClientOptions) =>
  send('/password/forgot', options, input);

/**
 * Sets a new password with the token from the reset link: `POST
 * {basePath}/password/reset`. Every session of the user ends; the store refreshes.
 * @returns error `TOKEN_INVALID` (400) for a bad, used or expired token.
 * @example
 * ```ts
 * const token = new URL(location.href).searchParams.get('token')!;
 * await resetPassword({ token, password: 'a-new-long-password' });
 * ```
 */
export const resetPassword = (input: { token: string; password: string }, options?: AuthClientOptions) =>
  send('/password/reset', options, input, true);

/**
 * Changes the signed-in user's password: `POST {basePath}/password/change`.
 * The store refreshes.
 * @returns error `INVALID_CREDENTIALS` (401) for a wrong current password.
 * @example
 * ```ts
 * await changePassword({ currentPassword, newPassword, revokeOtherSessions: true });
 * ```
 */
export const changePassword = (
  input: { currentPassword: string; newPassword: string; revokeOtherSessions?: boolean },
  options?: AuthClientOptions,
) => send('/password/change', options, input, true);

/**
 * Starts an email change: `POST {basePath}/email/change` sends a link to
 * the new address. The change happens only when that link's page is
 * confirmed in a browser signed in to this account (`verifyEmail`), and the
 * old address then gets a notice with an undo link. `password` is needed
 * unless the user signed in within the server's `session.freshAge`.
 * @returns errors `SESSION_NOT_FRESH` (403) without a password on an older
 *   sign-in, `INVALID_CREDENTIALS` (401), `INVALID_REQUEST` (400).
 * @example
 * ```ts
 * await changeEmail({ newEmail: 'ada@new.example', password });
 * ```
 */
export const changeEmail = (input: { newEmail: string; password?: string }, options?: AuthClientOptions) =>
  send('/email/change', options, input);

/**
 * Confirms an emailed verification link from your own page: `POST
 * {basePath}/verify-email` with the link's `token` (and `email`, present in
 * an email-change link, which must be confirmed while signed in to the same
 * account). The store refreshes.
 * @returns errors `TOKEN_INVALID` (400), `UNAUTHENTICATED` (401),
 *   `LINK_ACCOUNT_MISMATCH` (403), `EMAIL_TAKEN` (409).
 * @example
 * ```ts
 * const q = new URL(location.href).searchParams;
 * await verifyEmail({ token: q.get('token')!, ...(q.has('email') ? { email: q.get('email')! } : {}) });
 * ```
 */
export const verifyEmail = (input: { token: string; email?: string }, options?: AuthClientOptions) =>
  send('/verify-email', options, input, true);

/**
 * Undoes an email change from the notice's link: `POST
 * {basePath}/email/change/undo` with the link's `token` and `email` (the old
 * address). Every session of the account ends.
 * @returns errors `TOKEN_INVALID` (400), `EMAIL_TAKEN` (409).
 * @example
 * ```ts
 * const q = new URL(location.href).searchParams;
 * await undoEmailChange({ token: q.get('token')!, email: q.get('email')! });
 * ```
 */
export const undoEmailChange = (input: { token: string; email: string }, options?: AuthClientOptions) =>
  send('/email/change/undo', options, input, true);

/**
 * Lists the signed-in user's sessions: `GET {basePath}/sessions`
 * (`data.sessions`, this browser's first).
 * @returns errors `UNAUTHENTICATED` (401), `NOT_SUPPORTED` (400) under the jwt strategy.
 * @example
 * ```ts
 * const { data } = await listSessions();
 * for (const s of data?.sessions ?? []) console.log(s.userAgent, s.current);
 * ```
 */
export const listSessions = (options?: AuthClientOptions) => send<{ sessions: SessionInfo[] }>('/sessions', options);

/**
 * Ends one of the signed-in user's sessions by its public `id`:
 * `POST {basePath}/sessions/revoke`. An id that is not the user's changes
 * nothing (`data.revoked` is 0). The store refreshes (ending this
 * browser's own session signs it out).
 * @example
 * ```ts
 * await revokeSession(session.id);
 * ```
 */
export const revokeSession = (id: string, options?: AuthClientOptions) =>
  send<{ revoked: number }>('/sessions/revoke', options, { id }, true);

/**
 * Ends every session of the signed-in user except this browser's:
 * `POST {basePath}/sessions/revoke` with `{others: true}`.
 * @example
 * ```ts
 * const { data } = await revokeOtherSessions(); // data.revoked: how many ended
 * ```
 */
export const revokeOtherSessions = (options?: AuthClientOptions) =>
  send<{ revoked: number }>('/sessions/revoke', options, { others: true });

/**
 * Removes a linked sign-in method (`credentials` for the password, or an
 * OAuth provider id): `POST {basePath}/account/unlink`.
 * @returns errors `LAST_CREDENTIAL` (409) when it is the last way to sign
 *   in, `NOT_FOUND` (404) when it is not linked.
 * @example
 * ```ts
 * const { error } = await unlinkAccount('github');
 * ```
 */
export const unlinkAccount = (providerId: string, options?: AuthClientOptions) =>
  send('/account/unlink', options, { providerId });

/**
 * Deletes the signed-in user's account: `POST {basePath}/account/delete`.
 * Without `password` the sign-in must be recent (`session.freshAge` on the
 * server, default 300 s). The store refreshes (signed out).
 * @returns errors `SESSION_NOT_FRESH` (403): ask for the password and call
 *   again; `INVALID_CREDENTIALS` (401) for a wrong password.
 * @example
 * ```ts
 * let result = await deleteAccount();
 * if (result.error === 'SESSION_NOT_FRESH') result = await deleteAccount({ password: prompt('Password') ?? '' });
 * ```
 */
export const deleteAccount = (input?: { password?: string }, options?: AuthClientOptions) =>
  send('/account/delete', options, input ?? {}, true);
