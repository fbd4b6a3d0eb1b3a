/**
 * `requireAuth()` and `authorize()`: route protection as Fastify `preHandler` hooks, through the core's
 * `authMiddleware` (the same answers and codes as every adapter).
 * @module
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthScope } from '@framework/auth';
import { authMiddleware, guardScope, type AuthMiddlewareOptions } from '@framework/auth/middleware';
import { sendWebResponse } from './response.js';

/** A Fastify `preHandler` hook: it answers the request itself, or lets the route run. */
export type AuthGuard = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

/** Options of {@link requireAuth}. */
export interface RequireAuthGuardOptions {
  /**
   * Where to send a browser that is not signed in: a path or an absolute http(s) URL. Default: the sign-in page
   * (`pages.signIn`) with `callbackUrl` set to the request's path and query.
   */
  redirectTo?: string;
}

/** What a guard that passed in the same tick answers: one settled promise, shared (nothing can change it). */
const NOTHING: Promise<undefined> = Promise.resolve(undefined);

function scopeOf(request: FastifyRequest, caller: string): AuthScope {
  const scope = request.auth?.scope;
  if (!scope) {
    throw new Error(
      `${caller} needs the session: register authPlugin before the route (await app.register(authPlugin, { auth })).`,
    );
  }
  return scope;
}

function guard(options: AuthMiddlewareOptions, caller: string): AuthGuard {
  // authMiddleware decides every check; a signed-in user read from the scope passes it in the same tick.
  const check = authMiddleware(options);
  return (request, reply) => {
    let scope: AuthScope;
    try {
      scope = scopeOf(request, caller);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const outcome = guardScope(check, scope);
    // Passed in this tick (a user read from the scope, synchronous checks): a settled promise, no step more.
    if (outcome === true) return NOTHING;
    return outcome.then((refusal) => (refusal ? sendWebResponse(reply, refusal) : undefined));
  };
}

/**
 * A `preHandler` that lets only signed-in users through. Signed out, API clients (JSON `Accept`, an
 * `Authorization` header, `X-Requested-With`) get 401 `{error: {code: 'UNAUTHENTICATED' | 'SESSION_EXPIRED'}}`
 * and browsers a 302 (GET/HEAD; 303 otherwise) to the sign-in page with `callbackUrl`, or to `redirectTo`.
 * Session cookies queued by the session hook go out with the answer.
 *
 * @param options {@link RequireAuthGuardOptions}.
 * @throws AuthConfigError (`INVALID_CONFIG`) at creation for a `redirectTo` that is neither a path nor an http(s)
 *   URL; Error at request time when `authPlugin` is not registered.
 * @example
 * ```ts
 * app.get('/dashboard', { preHandler: requireAuth() }, (request) => `Hi ${request.auth!.user!.name}`);
 * ```
 */
export function requireAuth(options: RequireAuthGuardOptions = {}): AuthGuard {
  return guard(
    options.redirectTo === undefined ? {} : { unauthenticatedRedirect: options.redirectTo },
    'requireAuth()',
  );
}

/**
 * A `preHandler` running `authMiddleware` from `@framework/auth/middleware` (options and outcomes in core/README.md
 * "Route middleware"): signed out, as {@link requireAuth}; users lacking `role`, `roles`, `permission`,
 * `permissions` or failing `authorize` get 403 `{error: {code: 'FORBIDDEN'}}` (API clients), a 403 page or a
 * redirect to `unauthorizedRedirect` (browsers). Roles come from `createAuth({ rbac })` (or `options.rbac`) only,
 * never from `user.role` alone, and include the roles plugins grant for the request (the active organization's
 * role); without role definitions the check fails closed with an error (500).
 *
 * @param options `AuthMiddlewareOptions`: `role`, `roles`, `permission`, `permissions`, `authorize`, `required`,
 *   `unauthenticatedRedirect`, `unauthorizedRedirect`, `rbac`.
 * @throws AuthConfigError (`INVALID_CONFIG`) at creation for bad options (see `authMiddleware`); Error at request
 *   time when `authPlugin` is not registered or no role definitions exist.
 * @example
 * ```ts
 * app.get('/admin', { preHandler: authorize({ role: 'admin' }) }, () => 'admin only');
 * app.post('/posts', { preHandler: authorize({ permission: 'posts:create' }) }, createPost);
 * ```
 */
export function authorize(options: AuthMiddlewareOptions = {}): AuthGuard {
  return guard(options, 'authorize()');
}
