/**
 * Shapes shared by the client helpers and the store. They mirror the JSON the
 * auth routes answer with, so dates stay ISO strings.
 * @module
 */

/** Options every helper accepts: where the auth routes live and how to reach them. */
export interface AuthClientOptions {
  /**
   * Path of the auth routes on the server. Default `/auth` (the server's
   * default `basePath`).
   */
  basePath?: string;
  /**
   * Origin of an auth API served elsewhere, such as `https://api.example.com`.
   * Default: the page's own origin. When set, requests send cookies with
   * `credentials: 'include'`; the server must list the page's origin in
   * `trustedOrigins`.
   */
  baseUrl?: string;
  /** The `fetch` to use. Default: the global `fetch`. Tests inject one. */
  fetch?: typeof fetch;
  /**
   * Origins besides the page's and `baseUrl`'s that `signIn` / `signOut`
   * may navigate to, such as an OAuth provider's authorization server
   * (`['https://github.com']`). Default none: any other URL the server
   * answers with is replaced by `/`.
   */
  navigationOrigins?: readonly string[];
}

/** The signed-in person as `GET {basePath}/session` sends it. */
export interface ClientUser {
  id: string;
  name: string | null;
  email: string | null;
  image: string | null;
  role?: string;
  roles?: string[];
  [field: string]: unknown;
}

/**
 * The session as `GET {basePath}/session` sends it; `expires` is an ISO 8601
 * string. `U` is the user's type: {@link ClientUser} by default, or what
 * {@link SessionUser} infers from the server's `typeof auth`.
 */
export interface ClientSession<U = ClientUser> {
  user: U;
  expires: string;
  [field: string]: unknown;
}

/** Status of the auth store: `loading` until the first answer, then one of the other two. */
export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

/**
 * What the auth store holds. `authenticated` always comes with a user and a
 * session; the other two statuses never do. `error` is set when the last
 * session request failed before any state was known (network down, 5xx).
 * `U` is the user's type ({@link ClientUser} by default; see {@link SessionUser}).
 *
 * @example
 * ```ts
 * function label(state: AuthState): string {
 *   return state.status === 'authenticated' ? state.user.email ?? state.user.id : state.status;
 * }
 * ```
 */
export type AuthState<U = ClientUser> =
  | { status: 'loading'; user: null; session: null }
  | { status: 'authenticated'; user: U; session: ClientSession<U> }
  | { status: 'unauthenticated'; user: null; session: null; error?: string };
