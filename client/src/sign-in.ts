/**
 * `signIn(providerId, options)`.
 * @module
 */
import { announce } from './events.js';
import { call, csrfToken, currentUrl, endpoint, errorCode, navigate, urlOf } from './http.js';
import type { AuthClientOptions } from './types.js';

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

/** What {@link signIn} resolves to. */
export interface SignInResult {
  /** True when the server accepted the sign-in. */
  ok: boolean;
  /** HTTP status of the answer; 0 when the request could not be sent. */
  status: number;
  /** The error code, e.g. `INVALID_CREDENTIALS`, `CSRF_TOKEN_INVALID`, `FETCH_ERROR` (network). */
  error?: string;
  /** Where the server says to go next. */
  url?: string;
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
 * Signs in with a provider. It fetches a CSRF token first, then posts JSON:
 * `credentials` to `POST {basePath}/callback/credentials` with the credential
 * fields; any other id (OAuth presets, `email`) to `POST
 * {basePath}/signin/:providerId`. On success, stores in this page are
 * refreshed before the promise resolves, and other tabs are told.
 *
 * It never rejects: failures resolve with `ok: false` and an `error` code.
 * It never navigates after a failure either. It navigates only to http(s)
 * URLs on the page's origin, the `baseUrl` origin or `navigationOrigins`
 * (list your OAuth providers' authorization servers there); any other URL
 * in the answer (`javascript:`, `//evil.example`) sends the page to `/`.
 *
 * @param providerId `credentials`, `email` or an OAuth preset id.
 * @param options {@link SignInOptions}: `callbackUrl` / `redirectTo`
 *   (default: the current page), `redirect` (default true), credential fields.
 * @example
 * ```ts
 * const result = await signIn('credentials', { email, password, redirect: false });
 * if (!result.ok) showError(result.error); // e.g. 'INVALID_CREDENTIALS'
 * ```
 */
export async function signIn(providerId: string, options: SignInOptions = {}): Promise<SignInResult> {
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
  const url = urlOf(answer);
  if (!answer.ok) return { ok: false, status: answer.status, error: errorCode(answer), ...(url ? { url } : {}) };
  await announce(ep);
  if (options.redirect !== false && url) navigate(url, options);
  return { ok: true, status: answer.status, ...(url ? { url } : {}) };
}
