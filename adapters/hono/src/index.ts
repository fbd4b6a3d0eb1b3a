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

/**
 * A Hono handler serving every auth route (`auth.handler`).
 * @example
 * ```ts
 * app.on(['GET', 'POST'], '/auth/*', authHandler(auth));
 * ```
 */
export function authHandler(auth: Auth) {
  return (c: Context) => {
    const ip = clientIp(c);
    return auth.handler(c.req.raw, ip ? { ip } : {});
  };
}

/**
 * The client's socket address where the runtime exposes it (@hono/node-server
 * puts the Node request in `c.env.incoming`). Forwarding headers are never
 * read here: rate limits read `X-Forwarded-For` only with `trustProxy`.
 */
export function clientIp(c: Context): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress;
}

/**
 * Mounts the auth routes at `auth.config.basePath` (`/auth` by default) for
 * every method, so wrong methods get the kit's 405.
 * @example
 * ```ts
 * const app = new Hono();
 * mountAuth(app, auth);
 * ```
 */
export function mountAuth<E extends Env>(app: Hono<E>, auth: Auth): Hono<E> {
  const handler = authHandler(auth);
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
export function authSession(auth: Auth, options: AuthSessionOptions = {}): MiddlewareHandler<{ Variables: AuthVariables }> {
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
  if (options.scope === false) {
    return async (c, next) => {
      const state = await auth.getSession(c.req.raw);
      c.set('user', state.user);
      c.set('session', state.session);
      await next();
      finish(c, state.headers);
    };
  }
  return async (c, next) => {
    await auth.run(c.req.raw, async (scope) => {
      c.set('user', scope.user);
      c.set('session', scope.session);
      await next();
      finish(c, scope.headers);
    });
  };
}

export { mountTriggers, type WebhookRuntime } from './triggers.js';
export { authorize } from './middleware.js';
