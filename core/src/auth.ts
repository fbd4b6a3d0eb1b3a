/**
 * `createAuth`: the Web `Request` → `Response` auth engine.
 * @module
 */
import type { RequestInfo } from './request-info.js';
import { context as otelContext, trace } from '@opentelemetry/api';
import { AuthConfigError, AuthError, AuthRedirect } from './errors.js';
import { resolveAuthConfig, type AuthConfig, type ResolvedAuthConfig } from './config.js';
import type { AuthCallbacks } from './callbacks.js';
import { checkProviders } from './providers/check.js';
import type { Provider } from './providers/types.js';
import type { StorageAdapter } from './storage/types.js';
import { encryptAccountTokens } from './storage/encrypted-tokens.js';
import { databaseStrategy } from './session/database.js';
import { jwtStrategy } from './session/jwt.js';
import type { SessionRead, SessionStrategy } from './session/types.js';
import { parseCookies, readCookie, serializeCookie } from './http/cookies.js';
import { DEFAULT_MAX_BODY_BYTES, readFormBody } from './http/body.js';
import { checkCsrfToken, checkOrigin, csrfCookieName, issueCsrfToken } from './http/csrf.js';
import { publicOrigin, resolveOriginPolicy } from './http/origin.js';
import { toWebResponse } from './http/response.js';
import { randomString } from './crypto.js';
import { runInScope, type AuthScope } from './scope.js';
import type { ActionResult, AuthInternals, AuthLogger, RouteContext, SessionState } from './routes/context.js';
import { coreRoutes } from './routes/router.js';
import { rejectUnknownKeys } from './config-check/unknown-keys.js';
import { CREATE_AUTH_KEYS } from './config-check/create-auth-keys.js';
import { allowedMethods, buildRegistry } from './plugins/registry.js';
import { admitCredential } from './plugins/credential.js';
import type { AuthPlugin, PluginExtensions } from './plugins/types.js';
import { clearSessionCookie, errorResult, sessionCookie } from './routes/helpers.js';
import type { Session, User } from './types.js';
import { flowOf } from './providers/flow.js';
import { accessTokenGetter } from './access-token.js';
import { createLoginRateLimiter, createPasswordResetRateLimiter, defaultLoginLimiter } from './rate-limit/factories.js';
import type { RateLimitStorage } from './rate-limit/types.js';
import { createFixedWindowStorage } from './rate-limit/storage.js';
import { emailPasswordSetup } from './email-password/plugin.js';
import type { EmailAndPasswordOptions } from './email-password/options.js';
import type { AuthEvents } from './events.js';
import type { RateLimitConfig } from './rate-limit/types.js';
import { applyRateLimit } from './routes/rate-limited.js';
import { isRBAC } from './rbac/lookup.js';
import type { RBAC } from './rbac/types.js';
import { createAuthTelemetry } from './telemetry.js';
import { createRefusalLog, type RateLimitRefusal } from './rate-limit/refusals.js';
import { bindUserFields } from './user-fields/bind.js';
import type { AuthScopeOf, SessionStateOf, SessionUserOf, TypedCallbacks } from './user-fields/infer.js';
import type { UserFieldsConfig, UserOptions } from './user-fields/types.js';

/** Options of {@link createAuth}: the config from `defineAuthConfig` plus the parts below. */
export interface CreateAuthOptions<
  P extends readonly AuthPlugin[] = readonly AuthPlugin[],
  F extends UserFieldsConfig = UserFieldsConfig,
  S extends Session = Session,
> extends AuthConfig {
  /** Custom user fields (`additionalFields`), stored, validated and typed end to end. See {@link UserOptions}. */
  user?: UserOptions<F>;
  /**
   * Plugins: routes, hooks and typed extensions beyond sign-in (see
   * `core/PLUGINS.md`). Ids must be unique, and no two may serve one path:
   * conflicts throw `INVALID_CONFIG`.
   */
  plugins?: P;
  /** Sign-in methods. Ids must be unique. */
  providers: Provider[];
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
}

export type { RequestInfo } from './request-info.js';

/** The auth engine returned by {@link createAuth}; `Ext` holds the plugins' extensions by id. */
export interface Auth<Ext extends Record<string, unknown> = Record<string, unknown>, U extends User = User> {
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
   * Reads the request's session: `{session, user, expired, headers}`, where
   * `headers` holds any Set-Cookie (refreshed or cleared session cookie) that
   * the response must carry.
   */
  getSession(request: Request, info?: RequestInfo): Promise<SessionStateOf<U>>;
  /**
   * Runs `fn` inside the request scope read by `getUser()`, `requireAuth()`
   * and the rest. Adapters pass the client's socket address as `info.ip`, so
   * plugins that read other credentials (an API key) can limit per client.
   */
  run<T>(request: Request, fn: (scope: AuthScopeOf<U>) => T | Promise<T>, info?: RequestInfo): Promise<T>;
  /**
   * Reads the session and builds the request scope that {@link Auth.run} would enter (the session, the user, the
   * roles plugins grant for this request), without entering it: no `AsyncLocalStorage`, which on Node 20 costs a
   * fifth of a small route's throughput. Adapters keep it on their request context and enter it synchronously
   * with `withRequestScope(scope, fn)` for the helpers. `scope.headers` holds the Set-Cookie headers the response
   * must carry. Await it: it is a promise unless the session needed no waiting to confirm (a JWT verified before
   * and not due a storage check, or a database session read from `createSqliteAdapter` once its file is open and
   * not due a write; in both cases with no `session` callback or request-role hooks), when it is the scope itself,
   * so a protected route skips its ticks. A failure is always a rejected promise, never a synchronous throw.
   * @example
   * ```ts
   * const scope = await auth.openScope(request, { ip });
   * if (!scope.user) return new Response('Unauthorized', { status: 401 });
   * ```
   */
  openScope(request: Request, info?: RequestInfo): AuthScopeOf<U> | Promise<AuthScopeOf<U>>;
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

function wantsJson(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  const type = request.headers.get('content-type') ?? '';
  if (accept.includes('text/html')) return false;
  return accept.includes('application/json') || type.includes('application/json');
}

/**
 * Whether an error is answered as JSON `{error: {code, message}}`: always, unless the request accepts
 * `text/html` (a browser navigation or form post). So `curl`, `fetch` and other API clients never get an HTML
 * error page, whatever their `Accept` says.
 */
function wantsJsonError(request: Request): boolean {
  return wantsJson(request) || !(request.headers.get('accept') ?? '').includes('text/html');
}

function processEnv(): Record<string, unknown> {
  return ((globalThis as { process?: { env?: Record<string, unknown> } }).process?.env ?? {}) as Record<
    string,
    unknown
  >;
}

/**
 * Creates the auth engine.
 *
 * Routes under `basePath` (default `/auth`): `GET /providers`, `GET /csrf`,
 * `GET|POST /session`, `GET /signin`, `POST /signin/:provider`,
 * `POST /callback/:provider`, `GET|POST /signout`, `GET /error`,
 * `GET /verify-request`, `GET /sessions`, `POST /sessions/revoke`,
 * `POST /account/unlink`, `POST /account/delete`. JSON for clients that send `Accept:
 * application/json` (or a JSON body), redirects and HTML pages otherwise.
 * Every POST is CSRF-checked (Origin / `Sec-Fetch-Site`, then the
 * double-submit `csrfToken`); failures answer 403 `CSRF_ORIGIN_MISMATCH` /
 * `CSRF_TOKEN_INVALID`. Errors answer `{error: {code, message}}`.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) for a bad config: e.g. the
 *   database strategy without an adapter, a duplicate provider id, the jwt
 *   strategy without secret.
 * @example
 * ```ts
 * const auth = createAuth({
 *   ...defineAuthConfig({ session: { strategy: 'database' } }),
 *   adapter: createSqliteAdapter({ filename: '.data/auth.db' }),
 *   providers: [credentials({ credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } }, authorize })],
 * });
 * await auth.adapter?.migrate();
 * const res = await auth.handler(new Request('http://localhost/auth/session'));
 * ```
 */
export function createAuth<
  const P extends readonly AuthPlugin[] = [],
  const F extends UserFieldsConfig = Record<never, never>,
  S extends Session = Session,
>(options: CreateAuthOptions<P, F, S>): Auth<PluginExtensions<P>, SessionUserOf<F, S>> {
  if (!options || typeof options !== 'object')
    throw new AuthConfigError('Invalid auth config: createAuth needs an options object');
  rejectUnknownKeys(options, CREATE_AUTH_KEYS, 'Invalid auth config');
  const env = options.env ?? processEnv();
  const config = resolveAuthConfig(options, options.adapter ? 'database' : 'jwt', env);
  const originPolicy = resolveOriginPolicy(options, env);
  const { trustedOrigins } = originPolicy;
  bindUserFields(config, options.adapter, options.user);
  // OAuth tokens are stored encrypted under `secret` (see encryptAccountTokens).
  const stored = options.adapter && encryptAccountTokens(options.adapter, config.secret);
  const adapter = stored && options.secondaryStorage ? options.secondaryStorage.wrapAdapter(stored) : stored;
  // Built-in password accounts write through the same adapter, so revocations reach the session cache.
  const emailPassword =
    options.emailAndPassword === undefined ? undefined : emailPasswordSetup(options.emailAndPassword, adapter);
  const given = options.providers ?? [];
  const builtIn =
    emailPassword && !given.some((p) => p.id === emailPassword.provider.id) ? [emailPassword.provider] : [];
  const providers = checkProviders([...builtIn, ...given]);
  const callbacks: AuthCallbacks = options.callbacks ?? {};
  if (config.session.strategy === 'database' && !adapter) {
    throw new AuthConfigError(
      'Invalid auth config: the "database" session strategy requires `adapter` (or use strategy "jwt" with a secret)',
    );
  }
  for (const p of providers.values())
    if ((p.type === 'oauth' || p.type === 'oidc' || p.type === 'email') && !flowOf(p))
      throw new AuthConfigError(
        `Invalid auth config: provider "${p.id}" has no sign-in flow; build it with createOAuth2Provider(), a preset or email()`,
      );
  const needsStorage = [...providers.values()].find(
    (p) => p.type === 'email' || p.type === 'oauth' || p.type === 'oidc',
  );
  if (needsStorage && !adapter) {
    const kind = needsStorage.type === 'email' ? 'The email provider' : 'OAuth providers';
    throw new AuthConfigError(
      `Invalid auth config: ${kind} need \`adapter\` (users, accounts and tokens are stored, and user ids are ours)`,
    );
  }
  // Providers that bring routes (passkeys) register their plugin before the app's own plugins.
  const plugins: AuthPlugin[] = emailPassword ? [emailPassword.plugin] : [];
  for (const p of providers.values()) if ('plugin' in p && p.plugin) plugins.push(p.plugin);
  if (options.plugins !== undefined && !Array.isArray(options.plugins))
    throw new AuthConfigError('Invalid auth config: plugins must be an array');
  plugins.push(...(options.plugins ?? []));
  const registry = buildRegistry(coreRoutes(), plugins);
  if (options.rbac !== undefined && !isRBAC(options.rbac))
    throw new AuthConfigError('Invalid auth config: rbac must come from defineRBAC()');
  // The default limiters count where the secondary storage says (Redis: shared by every instance), else in memory.
  const sharedCounters = options.secondaryStorage?.rateLimitStorage?.();
  const loginLimiter =
    options.rateLimit?.login === false
      ? undefined
      : (options.rateLimit?.login ?? (sharedCounters ? createLoginRateLimiter(sharedCounters) : defaultLoginLimiter()));
  const passwordReset =
    options.rateLimit?.passwordReset ??
    (emailPassword ? createPasswordResetRateLimiter(sharedCounters ?? createFixedWindowStorage()) : undefined);
  const limiters = {
    login: loginLimiter,
    emailVerification: options.rateLimit?.emailVerification ?? loginLimiter,
    passwordReset,
  };
  const maxBodySize = options.maxBodySize ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isInteger(maxBodySize) || maxBodySize <= 0)
    throw new AuthConfigError('Invalid auth config: maxBodySize must be a positive integer (bytes)');
  const strategy: SessionStrategy =
    config.session.strategy === 'database'
      ? databaseStrategy(config, adapter!)
      : jwtStrategy(config, callbacks, adapter);
  const cookieName = config.cookies.sessionToken.name;
  const csrfSecure = config.cookies.sessionToken.options.secure;

  const telemetry = createAuthTelemetry();
  const refusals = createRefusalLog();
  const internals: AuthInternals = {
    config,
    providers,
    callbacks,
    strategy,
    adapter,
    signingKey: config.secret[0] ?? randomString(32),
    trustedOrigins,
    env,
    originPolicy,
    limiters,
    ...(emailPassword ? { emailAndPassword: emailPassword.options } : {}),
    ...(options.events ? { events: options.events } : {}),
    maxBodySize,
    logger: options.logger ?? { error: (m) => console.error(m), warn: (m) => console.warn(m) },
    rbac: options.rbac,
    hooks: registry.hooks,
    telemetry,
    refusals,
    readSession,
  };
  const pluginExtensions: Record<string, unknown> = {};
  for (const plugin of plugins) pluginExtensions[plugin.id] = plugin.init ? plugin.init(internals) : undefined;
  const extensions: Record<string, unknown> = { ...pluginExtensions, ...(options.rbac ? { rbac: options.rbac } : {}) };
  const resolvers = registry.hooks.resolveSession;
  // The auth routes (and provider tokens) count only the session cookie: a credential a plugin's
  // resolveSession reads (an API key) never signs in, links, changes or revokes credentials there.
  const cookieOnly: AuthInternals = {
    ...internals,
    readSession: (request, opts) => readSession(request, { ...opts, viaPlugins: false }),
  };

  /** The route template of a URL for spans and metrics (`/auth/callback/:provider`), or `unmatched`. */
  function routeOf(href: string): string {
    const path = new URL(href).pathname;
    if (path !== config.basePath && !path.startsWith(`${config.basePath}/`)) return 'unmatched';
    const rest = path.slice(config.basePath.length);
    const match = registry.match(rest);
    if (!match) return 'unmatched';
    const segments = rest.split('/').filter((s) => s.length > 0);
    return `${config.basePath}/${match.providerId === undefined ? segments.join('/') : `${segments[0]}/:provider`}`;
  }

  /**
   * `auth.openScope`. The hot path (a session that needs no I/O to confirm, no hooks) stays synchronous up to the
   * one promise returned, so a protected route pays one tick for its session.
   */
  function openScope(request: Request, info?: RequestInfo): AuthScope | Promise<AuthScope> {
    try {
      const state = sessionState(request, info ? { info } : {});
      return state instanceof Promise ? state.then((s) => scopeOf(request, s)) : scopeOf(request, state);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  function scopeOf(request: Request, state: SessionState): AuthScope | Promise<AuthScope> {
    const scope: AuthScope = {
      session: state.session,
      user: state.user,
      expired: state.expired,
      headers: state.headers,
      request,
      config,
      extensions: { ...extensions },
    };
    if (state.user && registry.hooks.requestRoles.length > 0) return withGrantedRoles(scope, state.user);
    return scope;
  }

  async function withGrantedRoles(scope: AuthScope, user: User): Promise<AuthScope> {
    const granted: string[] = [];
    for (const roles of registry.hooks.requestRoles) granted.push(...(await roles(scope.request, user)));
    if (granted.length > 0) scope.grantedRoles = granted;
    return scope;
  }

  type ReadOptions = { fresh?: boolean; viaPlugins?: boolean; info?: RequestInfo };

  /** `fresh`: confirm against storage now; `viaPlugins: false`: the session cookie only. */
  function readSession(request: Request, options: ReadOptions = {}): Promise<SessionState> {
    // Not async: an async function returning a promise would spend two more ticks adopting it.
    try {
      const state = sessionState(request, options);
      return state instanceof Promise ? state : Promise.resolve(state);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** {@link readSession}, synchronous when nothing it needs is asynchronous. */
  function sessionState(request: Request, options: ReadOptions): SessionState | Promise<SessionState> {
    const cookie = options.info?.cookie;
    const value = readCookie(cookie !== undefined ? cookie : request.headers.get('cookie'), cookieName);
    if (!value) {
      // Plugins may read other credentials (an API key in Authorization); plain apps pay nothing here.
      if (options.viaPlugins !== false && resolvers.length > 0) return viaResolvers(request, options.info ?? {});
      return { session: null, user: null, expired: false, headers: new Headers() };
    }
    const read = strategy.read(value, options.fresh ? { fresh: true } : undefined);
    return read instanceof Promise ? read.then(stateOfRead) : stateOfRead(read);
  }

  async function viaResolvers(request: Request, info: RequestInfo): Promise<SessionState> {
    for (const resolve of resolvers) {
      const state = await resolve(request, info);
      // Every read passes the checks a sign-in would (a ban, an unverified email), and is marked as a credential.
      if (state) return admitCredential(internals, registry.hooks.checkCredential, state, request);
    }
    return { session: null, user: null, expired: false, headers: new Headers() };
  }

  function stateOfRead(read: SessionRead): SessionState | Promise<SessionState> {
    const headers = new Headers();
    if (read.status !== 'valid') {
      headers.append('set-cookie', serializeCookie(clearSessionCookie(internals)));
      return { session: null, user: null, expired: read.status === 'expired', headers };
    }
    const session: Session = { user: read.user, expires: read.expires };
    if (read.impersonatedBy) session.impersonatedBy = read.impersonatedBy;
    if (read.refreshed)
      headers.append(
        'set-cookie',
        serializeCookie(sessionCookie(internals, read.refreshed.value, read.refreshed.expires)),
      );
    if (!callbacks.session) return { session, user: read.user, expired: false, headers };
    return Promise.resolve(
      callbacks.session({ session, user: read.user, ...(read.token ? { token: read.token } : {}) }),
    ).then((shaped) => ({ session: shaped, user: shaped.user ?? read.user, expired: false, headers }));
  }

  async function dispatch(request: Request, info: RequestInfo): Promise<ActionResult> {
    const url = new URL(request.url);
    const json = wantsJson(request);
    const base = { auth: cookieOnly, wantsJson: json };
    const failure = { auth: cookieOnly, wantsJson: wantsJsonError(request) };
    const path = url.pathname;
    if (path !== config.basePath && !path.startsWith(`${config.basePath}/`)) {
      return errorResult(failure, new AuthError('Not found', { code: 'NOT_FOUND', status: 404 }));
    }
    const match = registry.match(path.slice(config.basePath.length));
    if (!match) return errorResult(failure, new AuthError('Not found', { code: 'NOT_FOUND', status: 404 }));
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const action = method === 'GET' ? match.route.GET : method === 'POST' ? match.route.POST : undefined;
    if (!action) {
      const e = new AuthError(`Method ${request.method} not allowed`, {
        code: 'METHOD_NOT_ALLOWED',
        headers: { allow: allowedMethods(match.route).join(', ') },
      });
      return errorResult(failure, e);
    }
    const cookies = parseCookies(request.headers.get('cookie'));
    const origin = publicOrigin(originPolicy, url.origin);
    const ctx: RouteContext = {
      ...base,
      request,
      url,
      origin,
      cookies,
      body: {},
      ...(info.ip ? { ip: info.ip } : {}),
      ...(match.providerId !== undefined ? { providerId: match.providerId } : {}),
      route: routeOf(request.url),
    };
    try {
      if (method === 'POST') {
        const csrf = match.route.csrfExempt?.(ctx) ? 'none' : (match.route.csrf ?? 'token');
        if (csrf !== 'none') checkOrigin(request, origin, trustedOrigins);
        ctx.body = await readFormBody(request, maxBodySize);
        // CSRF before the limiter: a cross-site page can neither spend nor probe anyone's budget.
        if (csrf === 'token') {
          const csrfCookie = cookies[csrfCookieName(csrfSecure)];
          await checkCsrfToken(
            ctx.body.csrfToken ?? request.headers.get('x-csrf-token') ?? undefined,
            csrfCookie,
            internals.signingKey,
          );
        }
        const refused = await applyRateLimit(ctx, match.route.rateLimit?.(ctx), info);
        if (refused) return refused;
      }
      return await action(ctx);
    } catch (error) {
      return errorResult(failure, error);
    }
  }

  const csrf: Auth['csrf'] = {
    async issue(request) {
      const { token, cookie } = await issueCsrfToken(
        readCookie(request.headers.get('cookie'), csrfCookieName(csrfSecure)),
        internals.signingKey,
        csrfSecure,
      );
      const headers = new Headers();
      if (cookie) headers.append('set-cookie', serializeCookie(cookie));
      return { token, headers };
    },
    async verify(request, submitted) {
      checkOrigin(request, publicOrigin(originPolicy, new URL(request.url).origin), trustedOrigins);
      await checkCsrfToken(
        submitted ?? undefined,
        readCookie(request.headers.get('cookie'), csrfCookieName(csrfSecure)),
        internals.signingKey,
      );
    },
  };

  const engine: Auth<PluginExtensions<P>> = {
    extensions: pluginExtensions as PluginExtensions<P>,
    async migrate() {
      await adapter?.migrate();
      for (const plugin of plugins) await plugin.migrate?.(internals);
    },
    config,
    adapter,
    providers,
    csrf,
    getAccessToken: accessTokenGetter(cookieOnly),
    async createSession(user) {
      const resolved = typeof user !== 'string' ? user : adapter ? await adapter.getUser(user) : null;
      if (!resolved) throw new AuthError('No such user', { code: 'NOT_FOUND', status: 404 });
      const issued = await strategy.issue({ user: resolved, account: null });
      const headers = new Headers();
      headers.append('set-cookie', serializeCookie(sessionCookie(internals, issued.value, issued.expires)));
      return { ...issued, headers };
    },
    async handler(request, info = {}) {
      const traced = telemetry.startRequest(request, routeOf(request.url));
      let response: Response;
      try {
        const result = await otelContext.with(trace.setSpan(otelContext.active(), traced.span), () =>
          dispatch(request, info),
        );
        response = toWebResponse(result);
        if (request.method === 'HEAD')
          response = new Response(null, { status: response.status, headers: response.headers });
      } catch (error) {
        response = toWebResponse(errorResult({ auth: internals, wantsJson: true }, error));
      }
      traced.end(response.status);
      return response;
    },
    getSession: (request, info) => readSession(request, info ? { info } : {}),
    rateLimitRefusals: (limit) => refusals.recent(limit),
    openScope,
    async run(request, fn, info) {
      const scope = await openScope(request, info);
      return runInScope(scope, () => fn(scope));
    },
    toResponse(error, request) {
      if (error instanceof AuthRedirect)
        return new Response(null, { status: error.status, headers: { location: error.location } });
      if (error instanceof AuthError) {
        return toWebResponse(errorResult({ auth: internals, wantsJson: wantsJsonError(request) }, error));
      }
      return null;
    },
  };
  return engine as unknown as Auth<PluginExtensions<P>, SessionUserOf<F, S>>;
}
