/**
 * Type-only: the session user's type as the browser receives it, inferred
 * from the server's `typeof auth`.
 * @module
 */
import type { ClientUser } from './types.js';

/**
 * What the server's auth engine must look like for {@link SessionUser} to
 * read its user type: `createAuth(...)` from `@framework/auth` fits. Only the
 * type of `getSession`'s answer is used; nothing of the server is imported.
 *
 * @example
 * ```ts
 * import type { auth } from '../server/auth';
 * type Fits = typeof auth extends AuthServerLike ? true : false; // true
 * ```
 */
export interface AuthServerLike {
  getSession(request: Request): Promise<{ user: unknown }>;
}

/**
 * A value as it comes out of `JSON.parse` after the server's
 * `JSON.stringify`: `Date` becomes its ISO 8601 string, function-valued
 * fields drop out, arrays and objects are mapped through.
 *
 * @example
 * ```ts
 * type Wire = Jsonified<{ id: string; emailVerified: Date | null }>; // { id: string; emailVerified: string | null }
 * ```
 */
export type Jsonified<T> = T extends Date
  ? string
  : T extends (...args: never[]) => unknown
    ? never
    : T extends readonly (infer E)[]
      ? Jsonified<E>[]
      : T extends object
        ? { [K in keyof T as T[K] extends (...args: never[]) => unknown ? never : K]: Jsonified<T[K]> }
        : T;

/**
 * The user type of the session store, from its type argument:
 *
 * - nothing, `unknown` or `any` (as in `ReturnType<typeof createAuthStore>`):
 *   {@link ClientUser}, as before;
 * - the server's `typeof auth` (anything with `getSession(request)`): the
 *   user its `getSession` answers with, in JSON form (`Date` fields become
 *   ISO strings). Custom fields the server's types carry come through;
 * - any other object type: taken as the user type itself, for apps whose
 *   `callbacks.session` adds fields (`{ id: string; plan: 'free' | 'pro' }`).
 *
 * @example
 * ```ts
 * import type { auth } from '../server/auth';     // const auth = createAuth({...})
 * type Me = SessionUser<typeof auth>;             // { id: string; email?: string | null; emailVerified?: string | null; … }
 * const store = createAuthStore<typeof auth>();  // AuthStore<Me>
 * ```
 */
export type SessionUser<S = ClientUser> = unknown extends S
  ? ClientUser
  : S extends AuthServerLike
    ? Awaited<ReturnType<S['getSession']>> extends { user: infer U }
      ? Jsonified<NonNullable<U>> & { id: string }
      : ClientUser
    : S;

/**
 * The error codes (`error.code`, and the `error` field of the client's results) a server answers with, from its
 * `typeof auth`: the core's codes and the codes of the plugins passed to `createAuth({ plugins })` (each plugin's
 * `defineErrorCodes` table). Without a server type (or for `unknown`/`any`): `string`.
 *
 * @example
 * ```ts
 * import type { auth } from '../server/auth';         // createAuth({ ..., plugins: [twoFactor()] })
 * type Code = AuthErrorCodeOf<typeof auth>;          // 'INVALID_CREDENTIALS' | … | 'TWO_FACTOR_REQUIRED' | …
 * const needsCode = (error: string | undefined) => (error as Code | undefined) === 'TWO_FACTOR_REQUIRED';
 * ```
 */
export type AuthErrorCodeOf<S = unknown> = unknown extends S
  ? string
  : S extends { readonly $errorCode?: infer E }
    ? [NonNullable<E>] extends [string]
      ? NonNullable<E>
      : string
    : string;

/**
 * The codes the client makes itself, never answered by the server: `FETCH_ERROR` (the request could not be sent, or
 * the passkey chunk could not load), `HTTP_<status>` (an error answer without a JSON error code, a proxy's 502 say),
 * and the browser's passkey refusals (`PASSKEY_UNSUPPORTED`, `PASSKEY_CANCELLED`, `PASSKEY_ALREADY_REGISTERED`,
 * `PASSKEY_FAILED`), all with `status` 0 except `HTTP_<status>`.
 *
 * @example
 * ```ts
 * const retry = (code: ClientErrorCode) => code === 'FETCH_ERROR' || code.startsWith('HTTP_5');
 * ```
 */
export type ClientErrorCode =
  | 'FETCH_ERROR'
  | `HTTP_${number}`
  | 'PASSKEY_UNSUPPORTED'
  | 'PASSKEY_CANCELLED'
  | 'PASSKEY_ALREADY_REGISTERED'
  | 'PASSKEY_FAILED';

/**
 * The `error` field of the client's results (`signIn`, `signOut`, the account and plugin actions) for a server type
 * `S`: the server's codes ({@link AuthErrorCodeOf}) and the client's own ({@link ClientErrorCode}); `string` without a
 * server type (`S` unknown, a user type, or an engine that does not carry its codes).
 *
 * @example
 * ```ts
 * import type { auth } from '../server/auth';
 * type Code = ResultErrorCode<typeof auth>; // 'INVALID_CREDENTIALS' | … | 'FETCH_ERROR' | `HTTP_${number}` | …
 * ```
 */
export type ResultErrorCode<S = unknown> =
  string extends AuthErrorCodeOf<S> ? string : AuthErrorCodeOf<S> | ClientErrorCode;
