/**
 * `authorize(options)`: route protection as Express middleware, through the core's `authMiddleware` (the same
 * answers and codes as every adapter; no role logic of its own).
 * @module
 */
import type { RequestHandler } from 'express';
import { authMiddleware, guardScope, type AuthMiddlewareOptions } from '@framework/auth/middleware';
import { scopeOf } from './request-scope.js';
import { sendWebResponse } from './response.js';

/**
 * Express middleware running `authMiddleware` from `@framework/auth/middleware` (options and outcomes in
 * core/README.md "Route middleware") for the routes after it:
 *
 * - signed out: API clients (JSON `Accept`, an `Authorization` header, `X-Requested-With`) get 401
 *   `{error: {code: 'UNAUTHENTICATED' | 'SESSION_EXPIRED', message}}`; browsers a 302 (GET/HEAD; 303 otherwise) to
 *   the sign-in page (`pages.signIn`) with `callbackUrl`, or to `unauthenticatedRedirect`;
 * - signed in without `role`, `roles` (any one), `permission`, `permissions` (any one), or failing `authorize`:
 *   API clients get 403 `{error: {code: 'FORBIDDEN', message}}`; browsers a 403 page or a redirect to
 *   `unauthorizedRedirect`;
 * - otherwise the route runs (`next()`).
 *
 * Roles come from `createAuth({ rbac })` (or `options.rbac`) only, never from `user.role` alone, and include the
 * roles plugins grant for the request (the active organization's role). Without role definitions a role or
 * permission check fails closed: the error goes to `next(err)` (a 500 from `finalErrorHandler`), nobody passes.
 * Mount it after `authSession(auth)` (either `scope` mode); the session cookies it queued go out with a refusal too.
 *
 * @param options `AuthMiddlewareOptions`: `role`, `roles`, `permission`, `permissions`, `authorize`, `required`,
 *   `unauthenticatedRedirect`, `unauthorizedRedirect`, `rbac`.
 * @throws AuthConfigError (`INVALID_CONFIG`) at creation for bad options (an unknown option, an empty `roles`, a
 *   malformed permission, a redirect that is neither a path nor an http(s) URL). At request time, through
 *   `next(err)`: an Error when `authSession` did not run before it, or when no role definitions exist.
 * @example
 * ```ts
 * import { authSession, authorize } from '@framework/express';
 *
 * app.use(authSession(auth));
 * app.use('/admin', authorize({ role: 'admin' }));
 * app.post('/posts', authorize({ permission: 'posts:create' }), createPost);
 * ```
 */
export function authorize(options: AuthMiddlewareOptions = {}): RequestHandler {
  const check = authMiddleware(options);
  return (req, res, next) => {
    const scope = scopeOf(req);
    if (!scope) {
      next(new Error('authorize() needs the session: mount authSession(auth) before it (app.use(authSession(auth))).'));
      return;
    }
    const outcome = guardScope(check, scope);
    // Passed in this tick (a user read from the scope, synchronous checks): the route runs now.
    if (outcome === true) return next();
    outcome.then((refusal) => (refusal ? sendWebResponse(res, refusal) : next())).catch(next);
  };
}
