/**
 * `@framework/hono`: mounts `@framework/auth` in a Hono app. It converts
 * nothing but the edges: Hono already speaks Web `Request`/`Response`.
 * @module
 */
import type { Context, Env, Hono, MiddlewareHandler } from 'hono';
import type { Auth, Session, User } from '@framework/auth';

/** Context variables set by {@link authSession}: `c.get('user')`, `c.get('session')`. */
export interface AuthVariables {
  user: User | null;
  session: Session | null;
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

/** Options of {@link authSession}. */
export interface AuthSessionOptions {
  /**
   * Open the request scope (`AsyncLocalStorage`) so `getUser()`,
   * `requireAuth()` and the other helpers work in handlers. Default true.
   * With false only `c.get('user')` / `c.get('session')` are set: on Node 20
   * this avoids AsyncLocalStorage's promise hooks, which cost roughly a third
   * of a minimal route's throughput (see the README's benchmark notes).
   */
  scope?: boolean;
  /** The client's address, passed to the session read (API-key budgets per client). Default {@link clientIp}. */
  clientIp?: (c: Context) => string | undefined;
}

/**
 * Middleware that reads the session of every request: it sets
 * `c.get('user')` / `c.get('session')`, forwards refreshed or cleared session
 * cookies, and (by default) runs the rest of the request inside `auth.run`,
 * so `getUser()`, `requireAuth()` and the other helpers work in handlers.
 * Errors thrown by the helpers are answered as the kit answers them
 * (`AuthRedirect` → redirect; `UnauthenticatedError` and other `AuthError`s →
 * JSON or the error page with their status).
 * @example
 * ```ts
 * const app = new Hono<{ Variables: AuthVariables }>();
 * app.use('*', authSession(auth));
 * app.get('/me', (c) => c.json(c.get('user')));
 * app.get('/dashboard', (c) => c.text(`Hi ${requireAuth().name}`));
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
  const infoOf = (c: Context) => {
    const ip = ipOf(c);
    return ip ? { ip } : undefined;
  };
  if (options.scope === false) {
    return async (c, next) => {
      const state = await auth.getSession(c.req.raw, infoOf(c));
      c.set('user', state.user);
      c.set('session', state.session);
      await next();
      finish(c, state.headers);
    };
  }
  return async (c, next) => {
    await auth.run(
      c.req.raw,
      async (scope) => {
        c.set('user', scope.user);
        c.set('session', scope.session);
        await next();
        finish(c, scope.headers);
      },
      infoOf(c),
    );
  };
}

export { mountTriggers, type WebhookRuntime } from './triggers.js';
export { authorize } from './middleware.js';
export { securityHeaders } from './security-headers.js';
