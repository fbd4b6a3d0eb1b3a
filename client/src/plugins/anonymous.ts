/**
 * `@framework/auth-client/plugins/anonymous`: the browser side of the server's `anonymous()` plugin
 * (`@framework/auth/plugins/anonymous`). Resolves to an {@link AccountResult} and never rejects.
 *
 * Errors: `ANONYMOUS_ALREADY_SIGNED_IN` (400: this browser is signed in), `RATE_LIMITED` (429),
 * `CSRF_TOKEN_INVALID` (403). Signed in as a guest, the credential-changing routes answer 403
 * `ANONYMOUS_NOT_ALLOWED`; signing up or in by any method then links the guest to that account.
 * @module
 */
import { authRequest, type AccountResult, type AuthClientOptions } from '@framework/auth-client';

/**
 * Signs in as a new guest (a user without credentials): `POST {basePath}/anonymous/sign-in`. On success the
 * session store refreshes; `data.url` is where to go (`callbackUrl`, or the server's new-user page).
 * @example
 * ```ts
 * const { ok } = await signInAnonymous();
 * ```
 */
export const signInAnonymous = (input?: { callbackUrl?: string }, options?: AuthClientOptions) =>
  authRequest<{ url: string }>('/anonymous/sign-in', options, input ?? {}, true);

/**
 * The sign-in methods of this plugin, to spread beside the client's own: `signIn.anonymous()`.
 * @example
 * ```ts
 * import { signIn } from '@framework/auth-client/plugins/anonymous';
 * await signIn.anonymous({ callbackUrl: '/shop' });
 * ```
 */
export const signIn = { anonymous: signInAnonymous } as const;

export type { AccountResult };
