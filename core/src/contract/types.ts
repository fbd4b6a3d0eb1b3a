/**
 * The core's contract: the types every layer shares (the request an adapter hands in, the parsed route context, an
 * action's result, the session state, routes, hooks and plugins). Type-only, and it imports nothing above it, so
 * routes, flows, providers and plugins all depend downwards on it and never on one another's modules.
 * See `core/PLUGINS.md`.
 * @module
 */
import type { ResolvedAuthConfig } from '../config.js';
import type { AuthCallbacks } from '../callbacks.js';
import type { Provider } from '../providers/types.js';
import type { AdapterUser, StorageAdapter } from '../storage/types.js';
import type { SessionStrategy } from '../session/types.js';
import type { OutCookie } from '../http/cookies.js';
import type { Account, Session, User } from '../types.js';
import type { OriginPolicy } from '../http/origin.js';
import type { RateLimitAttempt, RateLimiter } from '../rate-limit/types.js';
import type { RBAC } from '../rbac/types.js';
import type { AuthTelemetry } from '../telemetry.js';
import type { RefusalLog } from '../rate-limit/refusals.js';
import type { AnyAuthEvent, AuthEventContext, AuthEvents } from '../events.js';
import type { ApiEndpoint, ApiMethods } from './api.js';
import type { AuthClock } from '../clock.js';
import type { Delivery } from '../delivery.js';
import type { LocalePolicy, PageLocale } from '../i18n/options.js';

/** Connection facts only an adapter knows. */
export interface RequestInfo {
  /** The client's IP address as seen on the socket (rate limits key on it). */
  ip?: string;
  /**
   * The request's own `Cookie` header, when the adapter can read it more cheaply than `request.headers` (on
   * @hono/node-server, from Node's `IncomingMessage`, which spares building the Web `Headers`). Omitted: read
   * from `request.headers`. Only the session reads use it.
   */
  cookie?: string | null;
}

/**
 * A Web `Request`, or a function that builds it: called at most once per request, and only when something reads
 * the request (a plugin's credential such as an API key, a request-role hook, `scope.request`). Adapters on Node
 * frameworks with no Web `Request` of their own (Express, Fastify) pass a builder and the raw `Cookie` header in
 * {@link RequestInfo.cookie}, so a session read by cookie builds no `Request` at all.
 * @example
 * ```ts
 * const scope = await auth.openScope(() => toWebRequest(req, res, { body: false }), {
 *   ip: req.socket.remoteAddress,
 *   cookie: req.headers.cookie ?? null,
 * });
 * ```
 */
export type RequestSource = Request | (() => Request);

/** Where the kit writes server-side diagnostics. Messages never contain secrets or stack traces. */
export interface AuthLogger {
  error(message: string): void;
  warn(message: string): void;
}

/** Everything an action may use, fixed at `createAuth` time. */
export interface AuthInternals {
  config: ResolvedAuthConfig;
  providers: ReadonlyMap<string, Provider>;
  callbacks: AuthCallbacks;
  strategy: SessionStrategy;
  adapter: StorageAdapter | undefined;
  /** Key for CSRF and other signed cookies: the first `secret`, or a per-process random key. */
  signingKey: string;
  trustedOrigins: readonly string[];
  /** `baseURL` and the trusted origins: where links point (see `http/origin.ts`). */
  originPolicy: OriginPolicy;
  env: Record<string, unknown>;
  /** The limiters routes may name in their policy; undefined when turned off. */
  limiters: {
    login: RateLimiter | undefined;
    emailVerification: RateLimiter | undefined;
    passwordReset: RateLimiter | undefined;
    /**
     * `rateLimit.rules`: a limiter per route template under `basePath` (`/signup`, `/signin/:provider`). The
     * dispatch uses it in place of the route's own limiter, on every method; empty without rules.
     */
    rules: ReadonlyMap<string, RateLimiter>;
  };
  /** The app's `events` hooks. */
  events?: AuthEvents;
  /** Every plugin's sign-in methods (`passkey()`), in registration order. */
  signInMethods: readonly SignInMethod[];
  /** Every plugin's sign-in page links, in registration order. */
  signInLinks: readonly SignInLink[];
  /** Every plugin's sign-up fields, in registration order (checked at `createAuth`). */
  signUpFields: readonly SignUpField[];
  /**
   * The template of the route serving `path` (under `basePath`, e.g. `/signin/credentials` → `/signin/:provider`),
   * or undefined when no core or plugin route serves it. For plugins that name routes in their options.
   */
  routeTemplateOf(path: string): string | undefined;
  /**
   * The extension (what `init` returned) of the plugin `id` among those initialised before the caller (plugins
   * are initialised in the order given), or undefined. For a plugin built on another (`oidcProvider()` signs with
   * `jwt()`'s keys): check it in `init` and refuse with `AuthConfigError` when it is missing.
   */
  extensionOf(id: string): unknown;
  maxBodySize: number;
  logger: AuthLogger;
  /** The role definitions given to `createAuth({ rbac })`, if any. */
  rbac: RBAC | undefined;
  /** Every plugin's hooks, by kind, in registration order. */
  hooks: Registry['hooks'];
  /** Spans and metrics (OpenTelemetry API; no-ops without an SDK). */
  telemetry: AuthTelemetry;
  /** This process's recent rate-limit refusals (a bounded ring). */
  refusals: RefusalLog;
  /**
   * Reads the session from a request (shared with `auth.getSession`).
   * `fresh`: confirm it against storage now, for routes that add
   * credentials (a JWT session revoked elsewhere must not add a passkey).
   */
  readSession(request: Request, options?: { fresh?: boolean }): Promise<SessionState>;
  /** The instance's clock (`createAuth({ clock })`, default `Date.now()`): every time decision reads it. */
  clock: AuthClock;
  /**
   * Hands an outgoing message to the app's hook through the seam `auth.onMessage` observes: every mail or SMS a
   * route or plugin sends goes through here (`deliver({ kind, channel, to, url, token, code, data }, () => hook(…))`).
   */
  deliver: Delivery['deliver'];
  /** The default pages' languages (`createAuth({ locale })`), checked; absent: the built-in ones, English first. */
  locale?: LocalePolicy;
}

/** The result of reading a request's session. */
export interface SessionState {
  session: Session | null;
  user: User | null;
  /** True when a session cookie was present but its session had expired. */
  expired: boolean;
  /** Set-Cookie headers (refreshed or cleared session cookie) the response must carry. */
  headers: Headers;
}

export interface RouteContext {
  auth: AuthInternals;
  request: Request;
  url: URL;
  /** The matched route's template (`/auth/callback/:provider`), for metrics and logs. */
  route?: string;
  /**
   * The app's public origin for this request, e.g. `https://app.example.com`:
   * `baseURL` when configured (a request on a trusted origin keeps its own),
   * else the request's origin. Every link and redirect is built on it.
   */
  origin: string;
  cookies: Record<string, string>;
  /** True when the client asked for JSON (Accept or Content-Type), else HTML/redirects. */
  wantsJson: boolean;
  /** `:provider` in `/signin/:provider` and `/callback/:provider`. */
  providerId?: string;
  /** The parsed body of a POST (read once, CSRF already checked). */
  body: Record<string, string>;
  /** The parsed JSON body of a POST to a route with `body: 'json'`, unchecked (the route checks its shape). */
  json?: unknown;
  /** The client's IP address, when the server adapter passed it (`RequestInfo.ip`). */
  ip?: string;
  /** The sign-in attempt counted by the route's rate limit, to settle with its outcome. */
  attempt?: RateLimitAttempt;
  /** The request's event context (request id, IP, User-Agent), made on first use by `emit`. */
  eventContext?: AuthEventContext;
}

export interface ActionResult {
  status: number;
  json?: unknown;
  html?: string;
  /** Location for a redirect (status 302/303). */
  redirect?: string;
  cookies?: OutCookie[];
  headers?: Record<string, string>;
  /** A plain-text body (e.g. a script) with its content type. */
  text?: string;
  contentType?: string;
  /** Set-Cookie headers already serialized (e.g. a refreshed session cookie). */
  setCookies?: Headers;
}

/**
 * A route's rate-limit policy for one request: which limiter, and how it
 * counts. `attempt`: every try per IP, and per (IP, account) until a
 * success resets it (see `RateLimiter.attempt`). `count`: every request
 * against the IP and the account budgets.
 */
export interface RouteRateLimit {
  limiter: RateLimiter;
  mode: 'attempt' | 'count';
  /**
   * The account the request names. Default: the body's `email`, else `username`. A function is awaited after the
   * CSRF checks (e.g. to open a sealed cookie that names the account); `''` names none.
   */
  identifier?: string | (() => Promise<string>);
}

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
   * A CORS preflight (Fetch standard): answered before any guard, limiter or body read, so it must have no side
   * effects. Without it, OPTIONS answers 405.
   */
  OPTIONS?: Action;
  /**
   * CSRF defence of the POST. `token` (default): the Origin /
   * `Sec-Fetch-Site` check and the double-submit token. `origin`: the
   * Origin check only (for bodies a script cannot add a token to). `none`:
   * the route protects itself (e.g. OAuth's state + PKCE + flow cookie).
   */
  csrf?: 'token' | 'origin' | 'none';
  /**
   * How the engine reads the POST body. `form` (default): JSON, urlencoded or multipart into `ctx.body`, a flat
   * string map (JSON arrays and nested values refused). `json`: a JSON body only (else 415), any JSON value —
   * arrays and nested objects kept — into `ctx.json` (`ctx.body` stays empty, so a `token` CSRF policy reads the
   * token from the `x-csrf-token` header). Same size limit (413) either way.
   */
  body?: 'form' | 'json';
  /** The limiter for this request, applied after the CSRF checks (see `RouteRateLimit`). */
  rateLimit?(ctx: RouteContext): RouteRateLimit | undefined;
  /**
   * POSTs that skip the CSRF checks for this one request, decided from the request (the OAuth callback with
   * `response_mode=form_post`, which state + PKCE + the flow cookie protect instead). Default: never.
   */
  csrfExempt?(ctx: RouteContext): boolean;
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
   * On every request to a route under `basePath` (HTTP and `auth.api`), after a POST's CSRF checks and body read,
   * before the route's rate limit and its action: the place for guards that must refuse before anything is
   * counted, written or sent (`captcha()`). `ctx.route` is the matched template (`/auth/signin/:provider`).
   * Return a result to answer instead, or throw an `AuthError` (answered as JSON or the error page); the first
   * hook to refuse wins and the action never runs.
   */
  beforeAction?(ctx: RouteContext): ActionResult | undefined | Promise<ActionResult | undefined>;
  /**
   * Wherever a route accepts a new password (`emailAndPassword()`'s sign-up, reset and change), after the length
   * checks and before anything is stored or hashed: throw an `AuthError` (a 400 with a stable code, such as
   * `haveIBeenPwned()`'s `PASSWORD_BREACHED`) to refuse it. Plugins with routes of their own that set a password
   * run `ctx.auth.hooks.checkNewPassword` the same way.
   */
  checkNewPassword?(password: string, ctx: RouteContext): void | Promise<void>;
  /**
   * In every sign-in, after the `signIn` callback and the writes, before a
   * session is issued. Return a result to answer instead (a second-factor
   * challenge, say): no session is issued then.
   */
  beforeSession?(
    ctx: RouteContext,
    subject: SignInSubject,
  ): ActionResult | undefined | Promise<ActionResult | undefined>;
  /**
   * After a sign-in issued its session. May return cookies to set beside the session cookie on the sign-in's answer
   * (`lastLoginMethod()` records the method used).
   */
  afterSignIn?(
    ctx: RouteContext,
    subject: SignInSubject,
  ): void | { cookies?: OutCookie[] } | Promise<void | { cookies?: OutCookie[] }>;
  /**
   * The default sign-in page asks which method this browser used last: return its key (`credentials`,
   * `magic-link`, `oauth:<provider id>`, or a plugin sign-in method's `type` such as `passkey`) and the page marks
   * that method "Last used". The first plugin to answer wins; a key no method on the page has marks nothing.
   */
  lastUsedMethod?(ctx: RouteContext): string | null | undefined | Promise<string | null | undefined>;
  /**
   * In a sign-in whose request carried a valid session cookie of another user (a guest's, `anonymous()`): runs
   * after the new session was issued (the old one rotated away) and after every `afterSignIn` hook, with
   * `replaced`, that other user as stored when the sign-in began. The old session is read only when some plugin
   * has this hook. A throw fails the answer (500) but undoes nothing: the new session exists.
   */
  signInReplaced?(ctx: RouteContext, replaced: User, subject: SignInSubject): void | Promise<void>;
  /**
   * Before a POST's CSRF checks: answer true to check this request under the `origin` policy (the `Origin` /
   * `Sec-Fetch-Site` check) in place of `token` (which also needs the double-submit cookie). For requests a browser
   * cannot send across sites without the app's CORS consent and that carry no ambient credential: `bearer()`
   * answers true for a request with no `Cookie` header at all and an `Authorization: Bearer` (or
   * `x-auth-mode: bearer`) header. Routes with the `none` policy, or exempt, are unaffected.
   */
  relaxCsrf?(request: Request): boolean;
  /**
   * After a route's action answered (not after a refusal or an error), on every route under `basePath`: return a
   * result to answer instead, e.g. the same one with a header added (`bearer()` adds `set-auth-token` where a
   * session cookie is set). Runs in plugin order, each hook seeing the previous one's result.
   */
  afterAction?(ctx: RouteContext, result: ActionResult): ActionResult | undefined | Promise<ActionResult | undefined>;
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
export interface AuthPlugin<
  Id extends string = string,
  Ext = unknown,
  Api extends Readonly<Record<string, ApiEndpoint<any, any>>> = Record<never, never>,
  Codes extends string = never,
> {
  /** Unique among the plugins of one `createAuth`; a duplicate throws `INVALID_CONFIG`. */
  readonly id: Id;
  /** Runs once in `createAuth`, with the core's internals; its value is the plugin's extension. */
  init?(auth: AuthInternals): Ext;
  /**
   * Routes by path under `basePath` (`two-factor/verify`); a path taken by the core or another plugin throws
   * `INVALID_CONFIG`. A path that ends in `/:provider` (`sso/callback/:provider`) takes exactly one more segment,
   * which the action reads, decoded, as `ctx.providerId`.
   */
  readonly routes?: Readonly<Record<string, PluginRoute>>;
  readonly hooks?: AuthHooks;
  /**
   * Providers the plugin brings, served like the app's own at `signin/:provider` and `callback/:provider`
   * (`emailAndPassword()` brings the email + password `credentials`). The app's own provider of the same id wins.
   */
  readonly providers?: readonly Provider[];
  /** Sign-in methods with routes of their own (`passkey()`), listed by `GET /providers` and on the sign-in page. */
  readonly signInMethods?: readonly SignInMethod[];
  /** Links the default sign-in page shows (`emailAndPassword()`: sign up, forgot password). */
  readonly signInLinks?: readonly SignInLink[];
  /**
   * Fields the plugin adds to email + password sign-up (`POST {basePath}/signup` and its default page), checked
   * before the user is created and stored by the plugin once it exists (`username()` adds `username`).
   */
  readonly signUpFields?: readonly SignUpField<any>[];
  /** The plugin's routes on `auth.api`, by method name (see `endpoint`); typed on `auth.api` from here. */
  readonly api?: Api;
  /** Creates or upgrades the plugin's storage; `auth.migrate()` runs it after the adapter's. Idempotent. */
  migrate?(auth: AuthInternals): Promise<void>;
  /**
   * The plugin's own error codes: the table `defineErrorCodes` returned (see core/PLUGINS.md "Error codes"). They
   * join the error codes `@framework/auth-client` types from `typeof auth` (`AuthErrorCodeOf`).
   */
  readonly errorCodes?: {
    readonly codes: Readonly<Record<Codes, { readonly status: number; readonly message: string }>>;
  };
}

/**
 * A way to sign in that a plugin serves with routes of its own (a passkey, say), beside the providers that sign in
 * at `signin/:provider`: `GET {basePath}/providers` lists it and the default sign-in page shows its form.
 */
export interface SignInMethod {
  readonly id: string;
  readonly name: string;
  /** What `GET {basePath}/providers` reports as its `type` (`passkey`). */
  readonly type: string;
  /** Its URLs for `GET {basePath}/providers`, as paths under `basePath`: `{ authenticateUrl: '/passkey/authenticate/options' }`. */
  readonly urls: Readonly<Record<string, string>>;
  /** Its part of the default sign-in page (HTML; every value it embeds must be escaped). */
  signInForm?(input: {
    basePath: string;
    csrfToken: string;
    callbackUrl: string;
    /** The page's language: translate with `yourMessages.for(locale)` (see `defineMessages`). */
    locale?: PageLocale;
  }): string;
}

/** The input types a plugin's sign-up field may have on the default sign-up page. */
export type SignUpFieldInputType = 'text' | 'email' | 'tel' | 'url' | 'number';

/**
 * A field a plugin adds to email + password sign-up (`POST {basePath}/signup`, its JSON body and the default no-JS
 * page). The value is the body's string under `name`; the plugin checks it and stores it itself, so nothing is added
 * to the users table (use `user.additionalFields` for that).
 *
 * Order of a sign-up: the email and password are checked, then the custom user fields, then each plugin field's
 * `check` (in plugin order), then the user is created, then each `persist`. A `check` that throws an `AuthError` of
 * status 400 or 409 refuses the sign-up before anything is stored; on the no-JS page the form is shown again with
 * the message and the values typed (never the password).
 * @example
 * ```ts
 * const field: SignUpField<string | undefined> = {
 *   name: 'nickname',
 *   label: 'Nickname',
 *   autocomplete: 'nickname',
 *   maxLength: 30,
 *   check: (_ctx, { value }) => value?.trim() || undefined,
 *   persist: async (_ctx, { value, user }) => nicknames.set(user.id, value),
 * };
 * ```
 */
export interface SignUpField<T = unknown> {
  /** The body key and the input's `name`: a letter, then letters, digits or `_` (at most 50). */
  readonly name: string;
  /** The input's label on the default sign-up page (plain text; escaped there). */
  readonly label: string;
  /**
   * The message id the default sign-up page shows instead of `label` in the page's language (from any registered
   * catalog or the app's `locale.messages`; `label` when none has it). See `defineMessages`.
   */
  readonly messageId?: string;
  /** The input's `type`. Default `text`. */
  readonly type?: SignUpFieldInputType;
  /** The input's `autocomplete` token (`username`, `tel`, …). Default none. */
  readonly autocomplete?: string;
  /** Marks the input `required` on the page. The server-side rule is `check`'s: it sees an absent value. Default false. */
  readonly required?: boolean;
  /** The input's `minlength` / `maxlength`, in characters (hints for the browser; `check` decides). */
  readonly minLength?: number;
  readonly maxLength?: number;
  /**
   * Runs before the user is created, with the body's value (`undefined` when absent or only spaces) and the sign-up's
   * parsed email address. Returns the value to store (`undefined`: nothing to store, `persist` is skipped). Throw an
   * `AuthError` to refuse the sign-up (400 or 409 re-show the page); a check that holds something (a name) should
   * hold it so that `persist` cannot fail for a taken value.
   */
  check(ctx: RouteContext, input: { value: string | undefined; email: string }): T | Promise<T>;
  /**
   * Runs once the user exists, in the same request, before the session is issued: stores what `check` returned.
   * `signsIn` is true when this sign-up signs the user in at once (no email verification, `autoSignIn`); false when
   * the account waits for verification or a later sign-in. Not run when the `signIn` callback refuses the sign-up.
   */
  persist?(ctx: RouteContext, input: { value: NonNullable<T>; user: AdapterUser; signsIn: boolean }): Promise<void>;
}

/** A link the default sign-in page shows under its forms (`Create an account`). */
export interface SignInLink {
  readonly label: string;
  /**
   * The message id the default sign-in page shows instead of `label` in the page's language (from any registered
   * catalog or the app's `locale.messages`; `label` when none has it). See `defineMessages`.
   */
  readonly messageId?: string;
  /** A path under `basePath`, e.g. `/signup`. */
  readonly path: string;
  /** Carry the sign-in page's `callbackUrl` to it as a query parameter. Default false. */
  readonly withCallbackUrl?: boolean;
}

/** The extensions record of a list of plugins: `{ [id]: Ext }`. */
export type PluginExtensions<P extends readonly AuthPlugin<string, unknown, any>[]> = {
  [K in P[number] as K['id']]: K extends AuthPlugin<string, infer E, any> ? E : never;
};

type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** The error codes a list of plugins declares (`errorCodes`), as a union. */
export type PluginErrorCodes<P extends readonly AuthPlugin<string, unknown, any, any>[]> = {
  [I in keyof P]: P[I] extends AuthPlugin<string, unknown, any, infer C> ? C : never;
}[number];

/** The `auth.api` methods a list of plugins adds. */
export type PluginApis<P extends readonly AuthPlugin<string, unknown, any>[]> =
  Intersection<
    { [I in keyof P]: P[I] extends AuthPlugin<string, unknown, infer A> ? ApiMethods<A> : never }[number]
  > extends infer R
    ? R extends object
      ? R
      : Record<never, never>
    : Record<never, never>;

/** A route in the table: a core route and a plugin's route are the same thing. */
export type Route = PluginRoute;

/** The route a request path matched, with its template (`/auth/callback/:provider`) for logs and metrics. */
export interface Match {
  route: Route;
  /** The route's template under `basePath`, e.g. `/auth/callback/:provider`. */
  template: string;
  providerId?: string;
}

/** The merged route table and the hooks of every plugin, by kind. */
export interface Registry {
  /** The route serving `path` (the whole URL path, `basePath` included), or null. */
  match(path: string): Match | null;
  readonly hooks: { [K in keyof AuthHooks]-?: NonNullable<AuthHooks[K]>[] };
}
