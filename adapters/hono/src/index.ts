/**
 * `@framework/hono`: mounts `@framework/auth` in a Hono app. It converts
 * nothing but the edges: Hono already speaks Web `Request`/`Response`.
 * @module
 */
import type { Context, Env, Hono, MiddlewareHandler, Next } from 'hono';
import { hasRequestScope, type Auth, type AuthScope, type RequestInfo, type Session, type User } from '@framework/auth';

/** Context variables set by {@link authSession}: `c.get('user')`, `c.get('session')`, `c.get('authScope')`. */
export interface AuthVariables {
  user: User | null;
  session: Session | null;
  /**
   * The request scope (`auth.openScope`): what the context-bound helpers (`requireAuth(c)`,
   * `requirePermission(c, …)`) and {@link authorize} read.
   */
  authScope: AuthScope;
}

/** Options of {@link authHandler} and {@link mountAuth}. */
export interface AuthMountOptions {
  /**
   * The client's IP address for a request, which rate limits key on.
   * Default {@link clientIp}: the connection's address on Node, Bun and
   * Deno. On Cloudflare Workers there is no socket: pass
   * `(c) => c.req.header('cf-connecting-ip')` (set by Cloudflare's edge; trust
   * it only when every request goes through Cloudflare).
   */
  clientIp?: (c: Context) => string | undefined;
}

/**
 * A Hono handler serving every auth route (`auth.handler`).
 * @example
 * ```ts
 * app.on(['GET', 'POST'], '/auth/*', authHandler(auth));
 * ```
 */
export function authHandler(auth: Auth, options: AuthMountOptions = {}) {
  const ipOf = options.clientIp ?? clientIp;
  return (c: Context) => {
    const ip = ipOf(c);
    return auth.handler(c.req.raw, ip ? { ip } : {});
  };
}

/**
 * The client's address as the runtime's own connection reports it (never a
 * forwarding header; rate limits read `X-Forwarded-For` only with
 * `trustProxy`): @hono/node-server's `c.env.incoming.socket`, Bun's
 * `server.requestIP()` (Hono's `c.env` on Bun), Deno's `info.remoteAddr`.
 * Undefined elsewhere (Workers: see {@link AuthMountOptions.clientIp}).
 */
export function clientIp(c: Context): string | undefined {
  const env = c.env as
    | {
        incoming?: { socket?: { remoteAddress?: string } };
        requestIP?: (request: Request) => { address?: string } | null;
        remoteAddr?: { hostname?: string };
      }
    | undefined;
  if (env?.incoming?.socket?.remoteAddress) return env.incoming.socket.remoteAddress;
  if (typeof env?.requestIP === 'function') return env.requestIP(c.req.raw)?.address ?? undefined;
  return env?.remoteAddr?.hostname;
}

/**
 * Mounts the auth routes at `auth.config.basePath` (`/auth` by default) for
 * every method, so wrong methods get the kit's 405.
 * @example
 * ```ts
 * const app = new Hono();
 * mountAuth(app, auth);
 * // On Cloudflare Workers, where there is no socket address:
 * mountAuth(app, auth, { clientIp: (c) => c.req.header('cf-connecting-ip') });
 * ```
 */
export function mountAuth<E extends Env>(app: Hono<E>, auth: Auth, options: AuthMountOptions = {}): Hono<E> {
  const handler = authHandler(auth, options);
  app.all(auth.config.basePath, handler);
  app.all(`${auth.config.basePath}/*`, handler);
  return app;
}

function appendSetCookies(c: Context, headers: Headers): void {
  const cookies = headers.getSetCookie();
  if (cookies.length === 0) return;
  try {
    for (const cookie of cookies) c.res.headers.append('set-cookie', cookie);
  } catch {
    // Immutable headers (a Response from fetch): copy the response first.
    const res = new Response(c.res.body, c.res);
    for (const cookie of cookies) res.headers.append('set-cookie', cookie);
    c.res = res;
  }
}

/**
 * The {@link RequestInfo} of a session read: the raw `Cookie` header now, the client's address only when something
 * reads `ip` (a plugin's credential, such as an API key's budget); a session read by cookie never does. Read once.
 */
class SessionReadInfo implements RequestInfo {
  readonly cookie: string | null | undefined;
  private readonly c: Context;
  private readonly ipOf: (c: Context) => string | undefined;
  private known: { ip: string | undefined } | undefined;

  constructor(c: Context, ipOf: (c: Context) => string | undefined, cookie: string | null | undefined) {
    this.c = c;
    this.ipOf = ipOf;
    this.cookie = cookie;
  }

  get ip(): string | undefined {
    return (this.known ??= { ip: this.ipOf(this.c) || undefined }).ip;
  }
}

/** Options of {@link authSession}. */
export interface AuthSessionOptions {
  /**
   * Also run the rest of the request inside `auth.run` (`AsyncLocalStorage`), so the global helpers of
   * `@framework/auth` (`getUser()`, `requireAuth()`, `requirePermission()` …) work in handlers and in code they
   * call. Default false: the session is bound to the Hono context (`c.get('user')`, and the helpers of this
   * package: `requireAuth(c)`, `requirePermission(c, …)`), which on Node 20 keeps a protected route near a
   * bare one; `AsyncLocalStorage`'s promise hooks cost Node 20 about a fifth of a small route's throughput
   * (Node 24 about 6 %; see the root README's benchmarks).
   */
  scope?: boolean;
  /** The client's address, passed to the session read (API-key budgets per client). Default {@link clientIp}. */
  clientIp?: (c: Context) => string | undefined;
}

/** Where @hono/node-server keeps, on its own request objects, the `IncomingMessage` and the Web `Headers` it built. */
interface NodeRequestKeys {
  incoming: symbol;
  headers: symbol;
}

/** Per request prototype; null where the keys could not be learnt (the Cookie header is then always read the Web way). */
const nodeRequestKeys = new WeakMap<object, NodeRequestKeys | null>();

function nodeKeysOf(raw: Record<symbol, unknown>, incoming: object, proto: object): NodeRequestKeys | null | undefined {
  const known = nodeRequestKeys.get(proto);
  if (known !== undefined) return known;
  const incomingKey = Object.getOwnPropertySymbols(raw).find((symbol) => raw[symbol] === incoming);
  // Not the server's own request for this message (an app-built Request): nothing to learn from it.
  if (incomingKey === undefined) return undefined;
  let keys: NodeRequestKeys | null = null;
  try {
    // node-server builds a request's Headers on first read of `headers` and keeps them under a private symbol:
    // build them on a probe of the same prototype (from an empty message) to learn which.
    const probe = Object.create(proto) as Record<symbol, unknown> & { headers?: unknown };
    probe[incomingKey] = { rawHeaders: [], headers: {} };
    void probe.headers;
    const headersKey = Object.getOwnPropertySymbols(probe).find((symbol) => probe[symbol] instanceof Headers);
    if (headersKey !== undefined) keys = { incoming: incomingKey, headers: headersKey };
  } catch {
    keys = null;
  }
  nodeRequestKeys.set(proto, keys);
  return keys;
}

/**
 * The raw `Cookie` header from @hono/node-server's `IncomingMessage` when Hono runs there, so the session read
 * does not make the server build the request's Web `Headers` (about a tenth of a small route's time). Only while
 * it is still the truth: `c.req.raw` must be the server's own request for that very message (a `Request` the app
 * built, a sub-app fetched with other headers and the same `env`, is read through its own headers), and its Web
 * `Headers` must not have been built yet (once they exist, a middleware may have changed or removed the cookie,
 * and reading them costs nothing more). Undefined otherwise, and the core then reads `request.headers`.
 */
function nodeCookieHeader(c: Context): string | null | undefined {
  const incoming = (c.env as { incoming?: { headers?: unknown } } | undefined)?.incoming;
  if (!incoming || typeof incoming.headers !== 'object' || incoming.headers === null) return undefined;
  const raw = c.req.raw as unknown as Record<symbol, unknown>;
  const proto = Object.getPrototypeOf(raw) as object | null;
  if (!proto || proto === Request.prototype) return undefined;
  const keys = nodeKeysOf(raw, incoming, proto);
  if (!keys || raw[keys.incoming] !== incoming || raw[keys.headers] !== undefined) return undefined;
  const cookie = (incoming.headers as Record<string, unknown>).cookie;
  return typeof cookie === 'string' ? cookie : null;
}

/**
 * Middleware that reads the session of every request: it sets `c.get('user')`, `c.get('session')` and
 * `c.get('authScope')`, forwards refreshed or cleared session cookies, and answers errors thrown by the helpers
 * as the kit answers them (`AuthRedirect` → redirect; `UnauthenticatedError`, `ForbiddenError` and other
 * `AuthError`s → JSON for API clients or the error page, with their status).
 *
 * In handlers, use `c.get('user')`, {@link authorize} for whole routes, or the context-bound helpers of this
 * package: `requireAuth(c)`, `requireRole(c, role)`, `requirePermission(c, permission, resource?)`,
 * `hasRole(c, role)`, `hasPermission(c, permission, resource?)`. The global helpers of `@framework/auth`
 * (`requireAuth()` with no context) need `{ scope: true }`; without it they throw an Error naming these options.
 * @example
 * ```ts
 * import { authSession, requireAuth, type AuthVariables } from '@framework/hono';
 *
 * const app = new Hono<{ Variables: AuthVariables }>();
 * app.use('*', authSession(auth));
 * app.get('/me', (c) => c.json(c.get('user')));
 * app.get('/dashboard', (c) => c.text(`Hi ${requireAuth(c).name}`));
 * ```
 */
export function authSession(
  auth: Auth,
  options: AuthSessionOptions = {},
): MiddlewareHandler<{ Variables: AuthVariables }> {
  const finish = (c: Context, headers: Headers) => {
    if (c.error) {
      const res = auth.toResponse(c.error, c.req.raw);
      if (res) {
        c.res = undefined;
        c.res = res;
      }
    }
    appendSetCookies(c, headers);
  };
  const ipOf = options.clientIp ?? clientIp;
  const infoOf = (c: Context): RequestInfo => new SessionReadInfo(c, ipOf, nodeCookieHeader(c));
  if (options.scope === true) return authSessionInScope(auth, finish, infoOf);
  // Not an async function: when the session is answered from memory, the route runs in this tick.
  const enter = (c: Context, next: Next, scope: AuthScope): Promise<void> => {
    c.set('user', scope.user);
    c.set('session', scope.session);
    c.set('authScope', scope);
    return next().then(() => finish(c, scope.headers));
  };
  const scoped = authSessionInScope(auth, finish, infoOf);
  return (c, next) => {
    // Inside another request's AsyncLocalStorage scope (this app fetched by an outer app that opened one), the
    // global helpers would read the outer scope: open this request's own, as { scope: true } does.
    if (hasRequestScope()) return scoped(c, next);
    const scope = auth.openScope(c.req.raw, infoOf(c));
    return scope instanceof Promise ? scope.then((s) => enter(c, next, s)) : enter(c, next, scope);
  };
}

/** `authSession` with `{ scope: true }`: the rest of the request runs in `auth.run`. */
function authSessionInScope(
  auth: Auth,
  finish: (c: Context, headers: Headers) => void,
  infoOf: (c: Context) => RequestInfo,
): MiddlewareHandler<{ Variables: AuthVariables }> {
  // Plain functions returning promises, not async ones: on Node 20 AsyncLocalStorage's promise hooks make every
  // promise cost, and each async layer adds some.
  return (c, next) =>
    auth.run(
      c.req.raw,
      (scope) => {
        c.set('user', scope.user);
        c.set('session', scope.session);
        c.set('authScope', scope);
        return next().then(() => finish(c, scope.headers));
      },
      infoOf(c),
    );
}

export { mountTriggers, type WebhookRuntime } from './triggers.js';
export { authorize } from './middleware.js';
export { requireAuth, requireRole, requirePermission, hasRole, hasPermission } from './helpers.js';
export { securityHeaders } from './security-headers.js';
