/**
 * `signOut(options)`.
 * @module
 */
import { announce } from './events.js';
import { call, csrfToken, currentUrl, endpoint, errorCode, navigate, urlOf } from './http.js';
import { getSession } from './session.js';
import type { AuthClientOptions, ClientSession } from './types.js';

/** Options of {@link signOut}. */
export interface SignOutOptions extends AuthClientOptions {
  /** Where to go after signing out. Default: the current page. */
  redirectTo?: string;
  /** Same as `redirectTo`; `redirectTo` wins when both are given. */
  callbackUrl?: string;
  /** Navigate to the URL the server answers with. Default true. */
  redirect?: boolean;
}

/**
 * What {@link signOut} resolves to. `E` is the error codes: `string`, or the server's codes on
 * `createAuthClient<typeof auth>().signOut` (see `ResultErrorCode`).
 */
export interface SignOutResult<E extends string = string> {
  /** True when the server ended the session. */
  ok: boolean;
  /** HTTP status of the answer; 0 when the request could not be sent. */
  status: number;
  /** The error code when `ok` is false, e.g. `CSRF_ORIGIN_MISMATCH`, `FETCH_ERROR`. */
  error?: E;
  /** Where the server says to go next. */
  url?: string;
  /**
   * The session data after the sign-out, as `GET {basePath}/session` now
   * answers: null once signed out (also when it could not be read), the
   * still-valid session when the sign-out failed. Only read with
   * `redirect: false`; null otherwise.
   */
  session: ClientSession | null;
}

/**
 * Signs out: fetches a CSRF token, then `POST {basePath}/signout`. On success,
 * stores in this page are refreshed before the promise resolves, and other
 * tabs are told. With `redirect: false` it resolves with the session data
 * (see {@link SignOutResult.session}) instead of navigating. It never rejects.
 * Like `signIn`, it navigates only to http(s) URLs on the page's origin, the
 * `baseUrl` origin or `navigationOrigins`, else to `/`.
 *
 * @param options {@link SignOutOptions}: `redirectTo` (default: the current
 *   page), `redirect` (default true).
 * @example
 * ```ts
 * const { ok, session } = await signOut({ redirect: false });
 * console.log(ok, session); // true null
 * ```
 */
export async function signOut(options: SignOutOptions = {}): Promise<SignOutResult> {
  const ep = endpoint(options);
  const callbackUrl = options.redirectTo ?? options.callbackUrl ?? currentUrl();
  let answer;
  try {
    const token = await csrfToken(ep);
    answer = await call(ep, '/signout', { csrfToken: token, ...(callbackUrl ? { callbackUrl } : {}) });
  } catch {
    return { ok: false, status: 0, error: 'FETCH_ERROR', session: null };
  }
  const url = urlOf(answer);
  const result: SignOutResult = { ok: answer.ok, status: answer.status, ...(url ? { url } : {}), session: null };
  if (!answer.ok) result.error = errorCode(answer);
  else await announce(ep);
  if (options.redirect !== false) {
    if (answer.ok && url) navigate(url, options);
    return result;
  }
  result.session = await getSession(options).catch(() => null);
  return result;
}
