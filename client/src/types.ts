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

/** The session as `GET {basePath}/session` sends it; `expires` is an ISO 8601 string. */
export interface ClientSession {
  user: ClientUser;
  expires: string;
  [field: string]: unknown;
}

/** Status of the auth store: `loading` until the first answer, then one of the other two. */
export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

/**
 * What the auth store holds. `authenticated` always comes with a user and a
 * session; the other two statuses never do. `error` is set when the last
 * session request failed before any state was known (network down, 5xx).
 */
export type AuthState =
  | { status: 'loading'; user: null; session: null }
  | { status: 'authenticated'; user: ClientUser; session: ClientSession }
  | { status: 'unauthenticated'; user: null; session: null; error?: string };
