/**
 * `@framework/auth-client/plugins/username`: browser functions for the routes of the server's `username()` plugin
 * (`@framework/auth/plugins/username`). Each resolves to an {@link AccountResult} and never rejects.
 *
 * Errors: `INVALID_CREDENTIALS` (401: the same for an unknown username and a wrong password), `EMAIL_NOT_VERIFIED`
 * (403, with email verification required), `USERNAME_INVALID` (400: invisible or look-alike characters, length, or
 * characters the server does not allow), `USERNAME_TAKEN` (409), `UNAUTHENTICATED` (401), `RATE_LIMITED` (429).
 * @module
 */
import { authRequest, type AccountResult, type AuthClientOptions } from '@framework/auth-client';

/**
 * Signs in with a username and password: `POST {basePath}/username/sign-in`. On success the session store
 * refreshes; `data.url` is where to go.
 * @example
 * ```ts
 * const { ok, data, error } = await signInUsername({ username: 'ada', password });
 * if (ok) location.assign(data!.url);
 * ```
 */
export const signInUsername = (
  input: { username: string; password: string; callbackUrl?: string },
  options?: AuthClientOptions,
) => authRequest<{ url: string }>('/username/sign-in', options, input, true);

/**
 * Creates an email + password account that holds a username: `POST {basePath}/signup` with `username` (the server
 * checks and holds the name before the account is made). When the server signs the new user in, the session store
 * refreshes and the account has the name at once; with email verification on, it gets it at its first sign-in.
 * @returns errors `USERNAME_INVALID` (400), `USERNAME_TAKEN` (409), `EMAIL_TAKEN` (409), `INVALID_REQUEST` (400)
 *   among others.
 * @example
 * ```ts
 * const { ok, error } = await signUpUsername({ email: 'ada@example.com', password, username: 'Ada' });
 * ```
 */
export const signUpUsername = (
  input: { email: string; password: string; username: string; name?: string; callbackUrl?: string },
  options?: AuthClientOptions,
) => authRequest('/signup', options, input, true);

/**
 * `signIn.username(input)`, beside the main client's `signIn`.
 * @example
 * ```ts
 * import { signIn } from '@framework/auth-client/plugins/username';
 * await signIn.username({ username: 'ada', password });
 * ```
 */
export const signIn = { username: signInUsername } as const;

/**
 * Whether a username is free (or the signed-in user's own): `POST {basePath}/username/available`. `data.username`
 * is the name as the server folds it (NFKC, lower case). Counted per IP by the server (429 `RATE_LIMITED`): call
 * it when the person pauses or submits, not on every key stroke.
 * @example
 * ```ts
 * const { ok, data } = await isUsernameAvailable({ username: 'Ada' });
 * if (ok && !data!.available) showTaken();
 * ```
 */
export const isUsernameAvailable = (input: { username: string }, options?: AuthClientOptions) =>
  authRequest<{ available: boolean; username: string }>('/username/available', options, input);

/**
 * Sets or changes the signed-in user's username: `POST {basePath}/username/update`. The old name is released.
 * @example
 * ```ts
 * const { ok, error } = await updateUsername({ username: 'countess.ada' }); // error 'USERNAME_TAKEN' when held
 * ```
 */
export const updateUsername = (input: { username: string }, options?: AuthClientOptions) =>
  authRequest<{ username: string; displayUsername: string }>('/username/update', options, input, true);

/**
 * The signed-in user's username: `GET {basePath}/username` (`null`s without one).
 * @example
 * ```ts
 * const { data } = await getUsername();
 * ```
 */
export const getUsername = (options?: AuthClientOptions) =>
  authRequest<{ username: string | null; displayUsername: string | null }>('/username', options);

export type { AccountResult };
