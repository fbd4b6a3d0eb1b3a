/**
 * The public shapes of the auth engine: the options of `createAuth` and the `Auth` object it returns.
 * @module
 */
import type { RequestInfo, RequestSource, AuthLogger, AuthPlugin } from '../contract/types.js';
import type { CoreApi } from './core-api.js';
import type { AuthConfig, ResolvedAuthConfig } from '../config.js';
import type { Provider } from '../providers/types.js';
import type { StorageAdapter } from '../storage/types.js';
import type { RateLimitConfig, RateLimitStorage } from '../rate-limit/types.js';
import type { RateLimitRefusal } from '../rate-limit/refusals.js';
import type { EmailAndPasswordOptions } from '../email-password/options.js';
import type { AuthEvents } from '../events.js';
import type { RBAC } from '../rbac/types.js';
import type { Session, User } from '../types.js';
import type { AuthScopeOf, SessionStateOf, TypedCallbacks } from '../user-fields/infer.js';
import type { UserFieldsConfig, UserOptions } from '../user-fields/types.js';
import type { AuthClock } from '../clock.js';
import type { MessageObserver } from '../delivery.js';
import type { LocaleOptions } from '../i18n/options.js';

/** Options of {@link createAuth}: the config from `defineAuthConfig` plus the parts below. */
export interface CreateAuthOptions<
  P extends readonly AuthPlugin<string, unknown, any>[] = readonly AuthPlugin[],
  F extends UserFieldsConfig = UserFieldsConfig,
  S extends Session = Session,
> extends AuthConfig {
  /**
   * The language of the default pages: `{ default, supported, detect, messages }` (see {@link LocaleOptions}).
   * Default: English, German, French, Spanish and Japanese, picked by `Accept-Language`, English when none fits.
   */
  locale?: LocaleOptions;
  /** Custom user fields (`additionalFields`), stored, validated and typed end to end. See {@link UserOptions}. */
  user?: UserOptions<F>;
  /**
   * Plugins: routes, hooks and typed extensions beyond sign-in (see
   * `core/PLUGINS.md`). Ids must be unique, and no two may serve one path:
   * conflicts throw `INVALID_CONFIG`.
   */
  plugins?: P;
  /**
   * Sign-in providers (credentials, OAuth/OIDC, email). Ids must be unique. Default none: an app with only
   * `emailAndPassword` (which brings its `credentials`) or plugins' sign-in methods leaves it out. A plugin that is a
   * sign-in method (`passkey()`) may be listed here too: it is added to `plugins`, before the app's own.
   */
  providers?: readonly (Provider | AuthPlugin)[];
  callbacks?: TypedCallbacks<F, S>;
  /**
   * Storage for users, accounts and database sessions. Required with the
   * `database` strategy. With `secret` set, OAuth tokens are stored encrypted
   * (`auth.adapter` reads them back in clear; see `encryptAccountTokens`).
   */
  adapter?: StorageAdapter;
  /**
   * A cache in front of `adapter` shared by several instances, e.g.
   * `redisSecondaryStorage(client)` from `@framework/auth/redis`: session
   * reads are cached in process and revocations are published, verification
   * tokens are kept there, and (with `rateLimitStorage`) the default rate
   * limits count there, shared by every instance. Default none.
   */
  secondaryStorage?: {
    wrapAdapter(adapter: StorageAdapter): StorageAdapter;
    rateLimitStorage?(): RateLimitStorage;
  };
  /**
   * The app's public origin, e.g. `https://app.example.com`. Every absolute
   * URL the kit sends out (magic links, OAuth `redirect_uri`, `GET
   * /providers`, the passkey origin default) is built from it, never from
   * the request's `Host` header (OWASP ASVS V5.1). Default: the `AUTH_URL`
   * environment variable. In production (`NODE_ENV=production`) either this
   * or `trustHost` is required: `createAuth` throws `INVALID_CONFIG` without.
   */
  baseURL?: string;
  /**
   * Build links from the request's own origin when no `baseURL` is set: only
   * behind a proxy you control that fixes the Host header. Default: the
   * `AUTH_TRUST_HOST` environment variable (`true`/`1`); outside production
   * the request origin is used anyway.
   */
  trustHost?: boolean;
  /**
   * Extra origins (e.g. `https://admin.example.com`) allowed as redirect
   * targets and as `Origin` of state-changing requests; a request arriving
   * on one of them builds its links on it.
   */
  trustedOrigins?: string[];
  /** Environment bindings handed to `authorize` as `ctx.env`. Default: `process.env` where it exists. */
  env?: Record<string, unknown>;
  /** Largest accepted request body on auth routes, in bytes. Default 65536 (64 KiB). */
  maxBodySize?: number;
  /** Diagnostics sink. Default: `console`. Messages carry no secrets and no stack traces. */
  logger?: AuthLogger;
  /** Roles and permissions from `defineRBAC`, read by `hasRole`, `requirePermission` and `authMiddleware`. */
  rbac?: RBAC;
  /**
   * Rate limits of the sign-in routes. `login` (credentials and, unless
   * `emailVerification` is set, email sign-in) defaults to an in-memory
   * limiter of 5 attempts per 900 s per client IP and per account; `false`
   * turns it off. Refused requests get 429 (`RATE_LIMITED`) with
   * `Retry-After` and `RateLimit-*` headers.
   */
  rateLimit?: RateLimitConfig;
  /**
   * Built-in email + password accounts: `GET/POST /signup`, email
   * verification (`/verify-email`, `/verify-email/send`), password reset
   * (`/password/forgot`, `/password/reset`), `/password/change` and
   * `/email/change`, with default pages, and a `credentials` provider
   * (email, password) unless you declare your own. Needs `adapter`. See
   * core/README.md "Email and password accounts".
   * @example
   * ```ts
   * createAuth({ adapter, providers: [], emailAndPassword: { sendVerificationEmail: ({ email, url }) => mailer.send(email, url), sendResetPassword: ({ email, url }) => mailer.send(email, url) } });
   * ```
   */
  emailAndPassword?: EmailAndPasswordOptions;
  /**
   * Awaited hooks at the security-relevant steps (sign-up, sign-in and its
   * failures, sign-out, password reset and change, email verification and
   * change, account deletion), each with the request id, IP and User-Agent.
   * A failing `on*` hook is logged and ignored; `beforeSignIn` may refuse
   * with an `AuthError`. See {@link AuthEvents}.
   */
  events?: AuthEvents;
  /**
   * The source of "now" (ms since the epoch) for every time decision of this instance: session expiry and sliding
   * refresh (database and JWT, including the JWT's `iat`/`exp` checks), emailed tokens (verification, reset, magic
   * link, email change), the in-memory rate limits, two-factor time steps and lockouts, one-time codes,
   * invitations, API-key expiry and passkey challenges. Storage is told the time by the caller (`purgeExpired(now)`,
   * `countActiveSessions(now)`, ...). Default {@link systemClock} (`Date.now()`); tests pass a clock they move.
   * Shared stores that keep their own TTL (Redis key expiry, Upstash) still count in real time.
   * @example
   * ```ts
   * import { createTestContext } from '@framework/testing';
   * const ctx = await createTestContext({ createApp: (db, tools) => ({ auth: createAuth({ adapter: db, clock: tools.clock }) }) });
   * ctx.clock.advance('25h');
   * ```
   */
  clock?: AuthClock;
}

/**
 * The auth engine returned by {@link createAuth}; `Ext` holds the plugins' extensions by id, `Api` the plugins'
 * methods on `auth.api`.
 */
export interface Auth<
  Ext extends Record<string, unknown> = Record<string, unknown>,
  U extends User = User,
  Api = Record<never, never>,
  ErrorCode extends string = string,
> {
  /**
   * Type only, never set: the error codes this engine answers with, the core's and those of the plugins given to
   * `createAuth`. `@framework/auth-client` reads it (`AuthErrorCodeOf<typeof auth>`).
   */
  readonly $errorCode?: ErrorCode;
  /**
   * Every route, core and plugin, callable from server code: `auth.api.signInCredentials({ email, password },
   * { headers: request.headers, returnHeaders: true })`. A call runs the route as a JSON request through the same
   * dispatch as HTTP (body limit, rate limits, hooks, events), acting as the session in `headers`; only the CSRF
   * checks are skipped. It resolves with the route's JSON answer (`returnHeaders: true`: `{ data, headers, status }`
   * with the `Set-Cookie` to forward) and rejects with the route's `AuthError` (its `code`, `status`, `message`).
   * @example
   * ```ts
   * const { data, headers } = await auth.api.signInCredentials(
   *   { email: 'ada@example.com', password: 'correct horse battery' },
   *   { returnHeaders: true },
   * );
   * const session = await auth.api.getSession(undefined, { headers: { cookie: headers.get('set-cookie')! } });
   * ```
   */
  readonly api: CoreApi & Api;
  /** What each plugin's `init` returned, by plugin id (typed from the `plugins` given to `createAuth`). */
  readonly extensions: Ext;
  /**
   * Serves every route under `basePath`; other paths answer 404 `NOT_FOUND`.
   * Never rejects. Adapters pass the client's socket address as `info.ip`.
   */
  handler(request: Request, info?: RequestInfo): Promise<Response>;
  /**
   * This process's most recent rate-limit refusals of the auth routes, newest first (at most `limit`, default 50;
   * the last 200 are kept in memory, so a flood costs no writes): when, the client IP (or `unknown`), and the
   * route template. The dashboard's Auth view shows them.
   * @example
   * ```ts
   * for (const { at, key, limit } of auth.rateLimitRefusals(20)) console.log(at, key, limit);
   * ```
   */
  rateLimitRefusals(limit?: number): RateLimitRefusal[];
  /**
   * Observes every message the kit and its plugins hand to the app's send hooks (verification, password reset,
   * magic link, email change and its undo notice, invitation, email and SMS one-time codes), before the hook
   * runs: `{kind, channel, to, url?, token?, code?, expiresAt?, data}`. The message carries secrets (links,
   * codes): keep them out of logs. An observer that throws is logged (error name only) and ignored; the send goes
   * on. `@framework/testing`'s `createTestContext` records `ctx.mail` through it.
   * @returns a function that removes the observer.
   * @example
   * ```ts
   * const outbox: OutgoingMessage[] = [];
   * const stop = auth.onMessage((message) => outbox.push(message));
   * // … sign up …
   * stop();
   * ```
   */
  onMessage(observer: MessageObserver): () => void;
  /**
   * The clock every time decision of this instance reads (`createAuth({ clock })`, default {@link systemClock}), for
   * code that must agree with it (a test computing the current TOTP code).
   */
  readonly clock: AuthClock;
  /**
   * Reads the request's session: `{session, user, expired, headers}`, where
   * `headers` holds any Set-Cookie (refreshed or cleared session cookie) that
   * the response must carry.
   */
  getSession(request: Request, info?: RequestInfo): Promise<SessionStateOf<U>>;
  /**
   * Runs `fn` inside the request scope read by `getUser()`, `requireAuth()`
   * and the rest. Adapters pass the client's socket address as `info.ip`, so
   * plugins that read other credentials (an API key) can limit per client.
   * `request` may be a builder ({@link RequestSource}), called only when the request is read.
   */
  run<T>(request: RequestSource, fn: (scope: AuthScopeOf<U>) => T | Promise<T>, info?: RequestInfo): Promise<T>;
  /**
   * Reads the session and builds the request scope that {@link Auth.run} would enter (the session, the user, the
   * roles plugins grant for this request), without entering it: no `AsyncLocalStorage`, which on Node 20 costs a
   * fifth of a small route's throughput. Adapters keep it on their request context and enter it synchronously
   * with `withRequestScope(scope, fn)` for the helpers. `scope.headers` holds the Set-Cookie headers the response
   * must carry. Await it: it is a promise unless the session needed no waiting to confirm (a JWT verified before
   * and not due a storage check, or a database session read from `createSqliteAdapter` once its file is open and
   * not due a write; in both cases with no `session` callback or request-role hooks), when it is the scope itself,
   * so a protected route skips its ticks. A failure is always a rejected promise, never a synchronous throw.
   * `request` may be a builder ({@link RequestSource}): with the raw `Cookie` header in `info.cookie`, a session
   * read by cookie never calls it; `scope.request` calls it on first read (a throw there reaches that reader).
   * @example
   * ```ts
   * const scope = await auth.openScope(request, { ip });
   * if (!scope.user) return new Response('Unauthorized', { status: 401 });
   * ```
   */
  openScope(request: RequestSource, info?: RequestInfo): AuthScopeOf<U> | Promise<AuthScopeOf<U>>;
  /**
   * Converts an error thrown by the request helpers (`AuthRedirect`,
   * `AuthError` and subclasses) into the Response the kit would give, or
   * null for other errors. Adapters use it in their error handling.
   */
  toResponse(error: unknown, request: Request): Response | null;
  /**
   * CSRF protection for the app's own state-changing routes (a registration
   * form, say), with the same token the kit's routes use.
   */
  readonly csrf: {
    /** A token to embed as `csrfToken` in a form, plus the Set-Cookie headers to send with the page. */
    issue(request: Request): Promise<{ token: string; headers: Headers }>;
    /**
     * Checks Origin / `Sec-Fetch-Site` and the submitted token against the cookie.
     * @throws AuthError `CSRF_ORIGIN_MISMATCH` or `CSRF_TOKEN_INVALID` (403).
     */
    verify(request: Request, submittedToken: string | null | undefined): Promise<void>;
  };
  /**
   * A valid access token for the signed-in user's account at `providerId`,
   * refreshed with the stored refresh token when expired (concurrent
   * refreshes of one account are coalesced). Null when the request has no
   * session or the user has no such account.
   * @throws AuthError `ACCESS_TOKEN_EXPIRED` / `OAUTH_REFRESH_FAILED` (401).
   */
  getAccessToken(request: Request, providerId: string): Promise<string | null>;
  /**
   * Issues a session for a stored user (by id) or a user record, as a
   * sign-in does (the `jwt` callback runs with trigger `signIn`), without a
   * request: for tests and trusted server code (e.g. right after sign-up).
   * Send `headers` (Set-Cookie) with your response.
   * @throws AuthError `NOT_FOUND` (404) when the id is not in storage.
   * @example
   * ```ts
   * const { headers } = await auth.createSession(user.id);
   * return new Response(null, { status: 303, headers: { location: '/', 'set-cookie': headers.get('set-cookie')! } });
   * ```
   */
  createSession(user: string | User): Promise<{ value: string; expires: Date; headers: Headers }>;
  /**
   * Creates or upgrades every table the engine uses: the storage adapter's,
   * then each plugin's (`AuthPlugin.migrate`), in registration order.
   * Idempotent: safe on every start.
   * @example
   * ```ts
   * const auth = createAuth({ adapter, providers, plugins: [jwt({ storage, audience: 'api' })] });
   * await auth.migrate();
   * ```
   */
  migrate(): Promise<void>;
  /** The resolved configuration. */
  readonly config: ResolvedAuthConfig;
  /** The storage adapter; with `secret` set, wrapped so OAuth tokens are written encrypted and read in clear. */
  readonly adapter: StorageAdapter | undefined;
  readonly providers: ReadonlyMap<string, Provider>;
}
