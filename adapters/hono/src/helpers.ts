/**
 * The request helpers of `@framework/auth`, bound to the Hono context that {@link authSession} filled: they read
 * `c.get('authScope')`, so they need no `AsyncLocalStorage`. Each one behaves exactly as the global helper of the
 * same name (the same redirects, errors and codes); {@link authSession} answers what they throw.
 * @module
 */
import type { Context } from 'hono';
import * as core from '@framework/auth';
import type { AuthScope, OwnedResource, RequireAuthOptions, User } from '@framework/auth';

/** The scope `authSession` kept on the context. @throws Error when `authSession` did not run for this request. */
function scopeOf(c: Context, caller: string): AuthScope {
  const scope = c.get('authScope') as AuthScope | undefined;
  if (!scope) {
    throw new Error(
      `${caller}(c) needs the session: mount authSession(auth) before the route (app.use('*', authSession(auth))).`,
    );
  }
  return scope;
}

/**
 * The signed-in user of this request. Without one it throws an `AuthRedirect` to the sign-in page (with
 * `callbackUrl` set to the current path and query), to `options.redirectTo` when given, or, with
 * `{ throwError: true }`, `UnauthenticatedError` (`UNAUTHENTICATED`, 401) or `SessionExpiredError`
 * (`SESSION_EXPIRED`, 401) when the cookie named an expired session. `authSession` turns each into its response.
 *
 * @throws AuthRedirect | UnauthenticatedError | SessionExpiredError; Error when `authSession` did not run.
 * @example
 * ```ts
 * app.get('/dashboard', (c) => c.text(`Hi ${requireAuth(c).name}`));
 * app.get('/api/me', (c) => c.json(requireAuth(c, { throwError: true })));
 * ```
 */
export function requireAuth(c: Context, options?: RequireAuthOptions): User {
  const scope = scopeOf(c, 'requireAuth');
  // Signed in: the user, as the global helper would return it; otherwise the global helper's redirect or error.
  return scope.user ?? core.withRequestScope(scope, () => core.requireAuth(options));
}

/**
 * Whether the signed-in user has `role` (any of an array), counting the role hierarchy of `createAuth({ rbac })`
 * and the roles plugins grant for this request (the active organization's role). False when signed out.
 * @throws Error when `authSession` did not run or no `rbac` was configured.
 * @example
 * ```ts
 * if (hasRole(c, 'admin')) links.push('/admin');
 * ```
 */
export function hasRole(c: Context, role: string | readonly string[]): boolean {
  return core.withRequestScope(scopeOf(c, 'hasRole'), () => core.hasRole(role));
}

/**
 * Whether the signed-in user holds `permission` (any of an array); a `resource` with an owner lets
 * `"resource:action:own"` grants count. False when signed out.
 * @throws Error when `authSession` did not run or no `rbac` was configured.
 * @example
 * ```ts
 * const canEdit = hasPermission(c, 'posts:edit', post);
 * ```
 */
export function hasPermission(
  c: Context,
  permission: string | readonly string[],
  resource?: OwnedResource | null,
): boolean {
  return core.withRequestScope(scopeOf(c, 'hasPermission'), () => core.hasPermission(permission, resource));
}

/**
 * The signed-in user when they have `role`. Signed out: as {@link requireAuth} (`UnauthenticatedError`);
 * without the role: `ForbiddenError` (`FORBIDDEN`, 403).
 * @throws UnauthenticatedError | ForbiddenError; Error when `authSession` did not run or no `rbac` was configured.
 * @example
 * ```ts
 * app.post('/admin/reindex', (c) => c.json({ by: requireRole(c, 'admin').id }));
 * ```
 */
export function requireRole(c: Context, role: string | readonly string[]): User {
  return core.withRequestScope(scopeOf(c, 'requireRole'), () => core.requireRole(role));
}

/**
 * The signed-in user when they hold `permission` (on `resource`, for `:own` grants). Signed out:
 * `UnauthenticatedError` (401); without it: `ForbiddenError` (`FORBIDDEN`, 403).
 * @throws UnauthenticatedError | ForbiddenError; Error when `authSession` did not run or no `rbac` was configured.
 * @example
 * ```ts
 * app.delete('/posts/:id', async (c) => {
 *   const post = await posts.find(c.req.param('id'));
 *   requirePermission(c, 'posts:delete', post);
 *   await posts.remove(post.id);
 *   return c.body(null, 204);
 * });
 * ```
 */
export function requirePermission(
  c: Context,
  permission: string | readonly string[],
  resource?: OwnedResource | null,
): User {
  return core.withRequestScope(scopeOf(c, 'requirePermission'), () => core.requirePermission(permission, resource));
}
