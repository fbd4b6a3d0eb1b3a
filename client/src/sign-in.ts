/**
 * `signIn(providerId, options)`.
 * @module
 */
import { call, csrfToken, currentUrl, endpoint } from './http.js';
import { signInWithPasskey } from './passkey.js';
import type { PasskeySignInOptions } from './passkey-types.js';
import { finishSignIn, type SignInResult } from './sign-in-answer.js';
import type { AuthClientOptions } from './types.js';

export type { SignInResult } from './sign-in-answer.js';

/** Options of {@link signIn}; any other field is sent to the provider (the credential fields). */
export interface SignInOptions extends AuthClientOptions {
  /** Where to go after signing in. Default: the current page. */
  callbackUrl?: string;
  /** Same as `callbackUrl`; wins when both are given. */
  redirectTo?: string;
  /**
   * Navigate when the server answers with a URL (the callback URL, an OAuth
   * authorization page, the "check your email" page). Default true. With
   * false, nothing navigates and the promise tells what happened.
   */
  redirect?: boolean;
  /** The address for an email (magic link) sign-in. */
  email?: string;
  /** Credential fields, such as `password`. Strings, numbers and booleans are sent. */
  [field: string]: unknown;
}

/**
 * The type of {@link signIn}: the provider sign-in, and `signIn.passkey(options?)`. `E` is the error codes of the
 * results: `string`, or the server's codes on `createAuthClient<typeof auth>().signIn` (see `ResultErrorCode`).
 */
export interface SignIn<E extends string = string> {
  (providerId: string, options?: SignInOptions): Promise<SignInResult<E>>;
  /**
   * Signs in with a passkey the browser already holds for this site (a discoverable credential: no email asked):
   * `POST {basePath}/passkey/authenticate/options`, the browser's ceremony (`@simplewebauthn/browser`, loaded on
   * first use), then `POST {basePath}/passkey/authenticate/verify`. Ends like `signIn`: stores refreshed, then the
   * page goes to the answer's URL unless `redirect` is false. Never rejects.
   * @returns `{ok, status, error?, url?}`; `error` is the server's code (`PASSKEY_VERIFICATION_FAILED`,
   *   `RATE_LIMITED`, …) or, with `status` 0, `PASSKEY_UNSUPPORTED` (no WebAuthn in this browser),
   *   `PASSKEY_CANCELLED` (the person dismissed the prompt, or it timed out), `PASSKEY_FAILED` (another browser
   *   refusal), `FETCH_ERROR`.
   * @example
   * ```ts
   * const result = await signIn.passkey({ callbackUrl: '/dashboard' });
   * if (!result.ok && result.error !== 'PASSKEY_CANCELLED') showError(result.error);
   * ```
   */
  passkey(options?: PasskeySignInOptions): Promise<SignInResult<E>>;
}

const RESERVED = new Set([
  'callbackUrl',
  'redirectTo',
  'redirect',
  'basePath',
  'baseUrl',
  'fetch',
  'navigationOrigins',
]);

/** The fields to send: credentials and the email, without the client's own options. */
export function providerFields(options: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (!RESERVED.has(key) && ['string', 'number', 'boolean'].includes(typeof value)) out[key] = value;
  }
  return out;
}

/**
 * The provider sign-in of {@link signIn}.
 * @param providerId `credentials`, `email` or an OAuth preset id.
 * @param options {@link SignInOptions}: `callbackUrl` / `redirectTo`
 *   (default: the current page), `redirect` (default true), credential fields.
 */
async function signInWith(providerId: string, options: SignInOptions = {}): Promise<SignInResult> {
  const ep = endpoint(options);
  const path = providerId === 'credentials' ? '/callback/credentials' : `/signin/${encodeURIComponent(providerId)}`;
  const callbackUrl = options.redirectTo ?? options.callbackUrl ?? currentUrl();
  let answer;
  try {
    const token = await csrfToken(ep);
    answer = await call(ep, path, {
      ...providerFields(options),
      csrfToken: token,
      ...(callbackUrl ? { callbackUrl } : {}),
    });
  } catch {
    return { ok: false, status: 0, error: 'FETCH_ERROR' };
  }
  return finishSignIn(ep, answer, options);
}

/**
 * Signs in with a provider. It fetches a CSRF token first, then posts JSON:
 * `credentials` to `POST {basePath}/callback/credentials` with the credential
 * fields; any other id (OAuth presets, `email`) to `POST
 * {basePath}/signin/:providerId`. On success, stores in this page are
 * refreshed before the promise resolves, and other tabs are told.
 * `signIn.passkey(options?)` signs in with a passkey (see {@link SignIn}).
 *
 * It never rejects: failures resolve with `ok: false` and an `error` code.
 * It never navigates after a failure either. It navigates only to http(s)
 * URLs on the page's origin, the `baseUrl` origin or `navigationOrigins`
 * (list your OAuth providers' authorization servers there); any other URL
 * in the answer (`javascript:`, `//evil.example`) sends the page to `/`.
 *
 * @example
 * ```ts
 * const result = await signIn('credentials', { email, password, redirect: false });
 * if (!result.ok) showError(result.error); // e.g. 'INVALID_CREDENTIALS'
 * ```
 */
export const signIn: SignIn = Object.assign(signInWith, { passkey: signInWithPasskey });
