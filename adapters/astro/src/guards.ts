/**
 * `requireAuth(Astro)`, `requireRole(Astro, role)`, `requirePermission(Astro, permission)`: guards for pages and
 * endpoints. They throw the kit's errors; `authMiddleware` answers them.
 * @module
 */
import * as core from '@framework/auth';
import type { OwnedResource, RequireAuthOptions, User } from '@framework/auth';
import { stateOf } from './state.js';

/** What the guards read: `Astro` in a page, the `APIContext` in an endpoint or middleware. */
export interface GuardContext {
  locals: object;
}

function inScope(context: GuardContext, caller: string, check: () => User): User {
  return core.withRequestScope(stateOf(context.locals, caller).scope, check);
}

/**
 * The signed-in user. Without one it throws an `AuthRedirect` to the sign-in page (with `callbackUrl` set to the
 * path and query; 303 after a POST), to `options.redirectTo`, or with `{throwError: true}` (endpoints)
 * `UnauthenticatedError` (401 `UNAUTHENTICATED`; `SESSION_EXPIRED` when the cookie named an expired session).
 * `authMiddleware` turns each into its response.
 *
 * @param context `Astro` in a page's frontmatter, or the endpoint's context.
 * @param options `RequireAuthOptions` from `@framework/auth`: `throwError`, `redirectTo`.
 * @throws AuthRedirect | UnauthenticatedError | SessionExpiredError; Error when `authMiddleware` did not run.
 * @example
 * ```astro
 * ---
 * // src/pages/dashboard.astro
 * import { requireAuth } from '@framework/astro';
 * const user = requireAuth(Astro);
 * ---
 * <p>Hello, {user.name}</p>
 * ```
 */
export function requireAuth(context: GuardContext, options: RequireAuthOptions = {}): User {
  return inScope(context, 'requireAuth', () => core.requireAuth(options));
}

/**
 * The signed-in user when they hold `role` (an array: any of them), counting the hierarchy of
 * `createAuth({ rbac })` and the roles plugins grant for the request. Signed out: as {@link requireAuth} with the
 * same `options`. Without the role: `ForbiddenError` (403 `FORBIDDEN`: JSON for API clients, the kit's page for
 * browsers). The check is `checkRole` from `@framework/auth`, as in every adapter: without role definitions it
 * fails closed (an Error, 500), never falling back to `user.role`.
 *
 * @throws AuthRedirect | UnauthenticatedError | ForbiddenError; Error when `authMiddleware` did not run or no
 *   `rbac` is configured; AuthConfigError for a role the definitions lack.
 * @example
 * ```ts
 * // src/pages/api/admin/stats.ts
 * import type { APIRoute } from 'astro';
 * import { requireRole } from '@framework/astro';
 *
 * export const GET: APIRoute = (context) => Response.json({ by: requireRole(context, 'admin').email });
 * ```
 */
export function requireRole(
  context: GuardContext,
  role: string | readonly string[],
  options: RequireAuthOptions = {},
): User {
  return inScope(context, 'requireRole', () => {
    core.requireAuth(options);
    return core.requireRole(role);
  });
}

/**
 * The signed-in user when they hold `permission` (an array: any of them); with a `resource` that has an owner,
 * `resource:action:own` grants count. Signed out: as {@link requireAuth} with the same `options`. Without it:
 * `ForbiddenError` (403 `FORBIDDEN`).
 *
 * @throws AuthRedirect | UnauthenticatedError | ForbiddenError; Error when `authMiddleware` did not run or no
 *   `rbac` is configured; AuthConfigError for a malformed permission.
 * @example
 * ```ts
 * // src/pages/api/posts.ts
 * import type { APIRoute } from 'astro';
 * import { requirePermission } from '@framework/astro';
 *
 * export const POST: APIRoute = (context) => {
 *   const author = requirePermission(context, 'posts:create', null, { throwError: true });
 *   return Response.json({ author: author.id }, { status: 201 });
 * };
 * ```
 */
export function requirePermission(
  context: GuardContext,
  permission: string | readonly string[],
  resource?: OwnedResource | null,
  options: RequireAuthOptions = {},
): User {
  return inScope(context, 'requirePermission', () => {
    core.requireAuth(options);
    return core.requirePermission(permission, resource);
  });
}
