/**
 * The plugin surface: how the core grows. A plugin adds routes under
 * `basePath` (each with its own CSRF and rate-limit policy), hooks around
 * the core's steps, and a typed extension object. See `core/PLUGINS.md`.
 * @module
 */
import type { ActionResult, AuthInternals, RouteContext, SessionState } from '../routes/context.js';
import type { RouteRateLimit } from '../routes/rate-limited.js';
import type { OutCookie } from '../http/cookies.js';
import type { Account, User } from '../types.js';
import type { RequestInfo } from '../request-info.js';
import type { AnyAuthEvent } from '../events.js';

/** A route action: the parsed request in, a plain result out (never a `Response`). */
export type Action = (ctx: RouteContext) => ActionResult | Promise<ActionResult>;

/**
 * One route under `basePath`. POST routes are state-changing: before the
 * action, the core checks them per `csrf` and then applies `rateLimit`.
 */
export interface PluginRoute {
  GET?: Action;
  POST?: Action;
  /**
   * CSRF defence of the POST. `token` (default): the Origin /
   * `Sec-Fetch-Site` check and the double-submit token. `origin`: the
   * Origin check only (for bodies a script cannot add a token to). `none`:
   * the route protects itself (e.g. OAuth's state + PKCE + flow cookie).
   */
  csrf?: 'token' | 'origin' | 'none';
  /** The limiter for this request, applied after the CSRF checks (see `RouteRateLimit`). */
  rateLimit?(ctx: RouteContext): RouteRateLimit | undefined;
}

/** What a sign-in is about to become, as `beforeSession` sees it. */
export interface SignInSubject {
  user: User;
  account: Account | null;
  isNewUser: boolean;
  /** Where the browser goes after sign-in. */
  callbackUrl: string;
}

/** The session `POST /signout` ended, as the `signedOut` hook sees it. */
export interface SignedOutSession {
  /** Its user, or null when the cookie held no valid session (missing, expired or forged). */
  user: User | null;
  /** The acting admin's id when the session was an impersonation (`admin()`). */
  impersonatedBy?: string;
}

/** Hooks around the core's steps. Each may be async; they run in plugin order. */
export interface AuthHooks {
  /**
   * In every sign-in, after the `signIn` callback and the writes, before a
   * session is issued. Return a result to answer instead (a second-factor
   * challenge, say): no session is issued then.
   */
  beforeSession?(
    ctx: RouteContext,
    subject: SignInSubject,
  ): ActionResult | undefined | Promise<ActionResult | undefined>;
  /** After a sign-in issued its session. */
  afterSignIn?(ctx: RouteContext, subject: SignInSubject): void | Promise<void>;
  /**
   * Reads a session from a request that carries no session cookie (an API
   * key in `Authorization`, say). The first plugin to answer wins. Never
   * consulted by the routes under `basePath` nor by `getAccessToken`: there
   * only the session cookie counts, so such a credential can never sign in,
   * link, change or revoke credentials. Throw an `AuthError` (e.g.
   * `RATE_LIMITED`) to refuse the request: `auth.run` / `getSession` reject
   * with it and `auth.toResponse` answers it. `info.ip` is the client's
   * address when the adapter passed it to `auth.run` / `getSession`.
   * What it returns passes, on every read, the core's credential checks and
   * every `checkCredential` hook (a banned user: 401 `CREDENTIAL_REFUSED`),
   * and is marked for `isPluginCredential`. Return the user as stored now.
   */
  resolveSession?(request: Request, info: RequestInfo): Promise<SessionState | undefined> | SessionState | undefined;
  /**
   * Runs on every read of a credential a `resolveSession` hook returned (an API key), before the request sees it:
   * the per-request counterpart of `beforeSession` for credentials that never sign in (a ban, say). `state.user` is
   * the credential's user as read now. Throw an `AuthError` to refuse the credential (`CREDENTIAL_REFUSED`, 401,
   * is the code for a credential whose account may not act); `auth.run` / `getSession` reject with it.
   */
  checkCredential?(state: SessionState & { user: User }, request: Request): void | Promise<void>;
  /**
   * The user's credentials were reset because their email was first proven
   * through another channel (the account pre-hijacking defence): remove any
   * credential the plugin keeps for `userId` (API keys, second factors).
   */
  credentialsReset?(userId: string): void | Promise<void>;
  /**
   * The user is being deleted (`POST {basePath}/account/delete`): drop what
   * the plugin keeps for `userId`. Runs after the `onDeleteUser` callback,
   * before the user's sessions end and the user is removed from storage.
   */
  userDeleted?(userId: string): void | Promise<void>;
  /**
   * The user is about to be deleted (`POST {basePath}/account/delete`, or `admin()` removing them), before
   * anything is: before the `onDeleteUser` callback and every `userDeleted` hook. Throw an `AuthError` to refuse
   * the deletion, which then changes nothing (`organizations()` answers 409 `LAST_OWNER` for an organization's
   * only owner). A hook that changes something may return an undo function: it runs when a later step refuses
   * or fails, so the refused deletion leaves things as they were (`organizations()` removes the memberships here,
   * atomically, and puts them back).
   */
  beforeUserDelete?(userId: string): void | (() => Promise<void>) | Promise<void | (() => Promise<void>)>;
  /**
   * `POST {basePath}/signout` ended the browser's session (`ended`: whose it was, read before it ended; `user`
   * null when the cookie held no valid session). End what the plugin keeps beside it in that browser and return
   * the cookies to clear; `admin()` ends the admin's own session sealed beside an impersonation.
   */
  signedOut?(
    ctx: RouteContext,
    ended: SignedOutSession,
  ): readonly OutCookie[] | undefined | Promise<readonly OutCookie[] | undefined>;
  /**
   * Every `on*` auth event (the same object the app's `events` hook gets,
   * with `type`), after the app's hook. Awaited; a throw is logged by error
   * name and the flow goes on. `auditLog()` is built on it.
   */
  onEvent?(event: AnyAuthEvent): void | Promise<void>;
  /**
   * Roles `user` holds for this request only (the role in the active organization, say). `auth.run` and the
   * adapters' session middleware add them to the scope's RBAC checks (`hasRole`, `requirePermission`,
   * `authMiddleware`), never to `user` itself. Runs once per scoped request with a signed-in user.
   */
  requestRoles?(request: Request, user: User): readonly string[] | Promise<readonly string[]>;
}

/**
 * A plugin. `Ext` is what `init` returns: it becomes
 * `scope.extensions[id]` and `auth.extensions[id]`, typed from the plugins
 * given to `createAuth`.
 */
export interface AuthPlugin<Id extends string = string, Ext = unknown> {
  /** Unique among the plugins of one `createAuth`; a duplicate throws `INVALID_CONFIG`. */
  readonly id: Id;
  /** Runs once in `createAuth`, with the core's internals; its value is the plugin's extension. */
  init?(auth: AuthInternals): Ext;
  /**
   * Routes by path under `basePath` (`two-factor/verify`); a path taken by the core or another plugin throws
   * `INVALID_CONFIG`.
   */
  readonly routes?: Readonly<Record<string, PluginRoute>>;
  readonly hooks?: AuthHooks;
  /** Creates or upgrades the plugin's storage; `auth.migrate()` runs it after the adapter's. Idempotent. */
  migrate?(auth: AuthInternals): Promise<void>;
}

/** The extensions record of a list of plugins: `{ [id]: Ext }`. */
export type PluginExtensions<P extends readonly AuthPlugin[]> = {
  [K in P[number] as K['id']]: K extends AuthPlugin<string, infer E> ? E : never;
};
