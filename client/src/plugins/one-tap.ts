/**
 * `@framework/auth-client/plugins/one-tap`: the browser side of the server's `oneTap()` plugin
 * (`@framework/auth/plugins/one-tap`). It posts the ID token Google's One Tap / "Sign in with Google" script hands
 * the page; load Google's script yourself (this module never does). Each function resolves to an
 * {@link AccountResult} and never rejects.
 *
 * Errors: `ONE_TAP_TOKEN_INVALID` (401: forged, expired, for another client, or used already),
 * `ONE_TAP_NONCE_INVALID` (401), `ONE_TAP_EMAIL_UNVERIFIED` (403), `ONE_TAP_SIGN_UP_DISABLED` (403),
 * `OAUTH_ACCOUNT_NOT_LINKED`, `RATE_LIMITED` (429).
 * @module
 */
import { authRequest, type AccountResult, type AuthClientOptions } from '@framework/auth-client';

/**
 * Signs in with Google's ID token (`response.credential` from Google's callback): `POST
 * {basePath}/one-tap/callback` with the kit's CSRF token. The session store refreshes; `data.url` is where to go.
 * @example
 * ```ts
 * google.accounts.id.initialize({
 *   client_id: GOOGLE_CLIENT_ID,
 *   nonce: (await getOneTapNonce()).data?.nonce,
 *   callback: async ({ credential }) => {
 *     const { ok, data } = await signIn.oneTap({ credential });
 *     if (ok) location.assign(data!.url);
 *   },
 * });
 * ```
 */
export const signInOneTap = (
  input: { credential: string; callbackUrl?: string },
  options?: AuthClientOptions,
): Promise<AccountResult<{ url: string }>> =>
  authRequest<{ url: string }>(
    '/one-tap/callback',
    options,
    { idToken: input.credential, callbackUrl: input.callbackUrl },
    true,
  );

/** `signIn.oneTap(...)`: {@link signInOneTap}. */
export const signIn = { oneTap: signInOneTap };

/**
 * Asks the server for a nonce to pass to Google (`nonce` in `google.accounts.id.initialize`): `GET
 * {basePath}/one-tap/nonce`; it also sets an HttpOnly cookie, and the token Google returns must carry the nonce.
 * @example
 * ```ts
 * const { data } = await getOneTapNonce();
 * ```
 */
export const getOneTapNonce = (options?: AuthClientOptions) =>
  authRequest<{ nonce: string }>('/one-tap/nonce', options);
