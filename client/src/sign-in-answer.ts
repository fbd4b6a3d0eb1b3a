/**
 * How a sign-in ends on the page, whatever the method (`signIn`, `signIn.passkey`): the answer becomes a
 * {@link SignInResult}, stores are refreshed on success, and the page goes where the answer says (a safe URL only).
 * @internal
 * @module
 */
import { announce } from './events.js';
import { errorCode, navigate, urlOf, type Answer, type Endpoint } from './http.js';
import type { AuthClientOptions } from './types.js';

/**
 * What {@link signIn} and `signIn.passkey` resolve to. `E` is the error codes: `string`, or the server's codes on
 * `createAuthClient<typeof auth>().signIn` (see `ResultErrorCode`).
 */
export interface SignInResult<E extends string = string> {
  /** True when the server accepted the sign-in. */
  ok: boolean;
  /** HTTP status of the answer; 0 when the request could not be sent (or the browser ended a passkey ceremony). */
  status: number;
  /**
   * The error code, e.g. `INVALID_CREDENTIALS`, `CSRF_TOKEN_INVALID`, `PASSKEY_VERIFICATION_FAILED`,
   * `PASSKEY_CANCELLED`, `FETCH_ERROR` (network).
   */
  error?: E;
  /** Where the server says to go next. */
  url?: string;
}

/**
 * Turns the sign-in route's answer into a result. On success, this page's stores are refreshed (awaited) and other
 * tabs told before it resolves; then, unless `redirect` is false, the page navigates to the answer's URL. A failure
 * never navigates.
 */
export async function finishSignIn(
  ep: Endpoint,
  answer: Answer,
  options: AuthClientOptions & { redirect?: boolean },
): Promise<SignInResult> {
  const url = urlOf(answer);
  if (!answer.ok) return { ok: false, status: answer.status, error: errorCode(answer), ...(url ? { url } : {}) };
  await announce(ep);
  if (options.redirect !== false && url) navigate(url, options);
  return { ok: true, status: answer.status, ...(url ? { url } : {}) };
}
