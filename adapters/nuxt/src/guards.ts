/**
 * `requireAuth(event)`, `requireRole(event, role)` and `requirePermission(event, permission)`: guards for server
 * routes, answering as the kit does.
 * @module
 */
import type { H3Event } from 'h3';
import * as core from '@framework/auth';
import type { OwnedResource, RequireAuthOptions, User } from '@framework/auth';
import { answer } from './respond.js';
import { requestScope } from './session.js';

/**
 * Runs a helper of `@framework/auth` in the request's scope. What it throws as a kit error (a redirect, 401, 403)
 * is sent as the kit's answer and the route stops; anything else (a configuration error) is rethrown.
 */
async function guarded(event: H3Event, caller: string, check: () => User): Promise<User> {
  const { auth, scope: pending } = requestScope(event, caller);
  const scope = await pending;
  try {
    return core.withRequestScope(scope, check);
  } catch (thrown) {
    const refused = auth.toResponse(thrown, scope.request);
    if (refused) return answer(event, refused);
    throw thrown;
  }
}

/**
 * The signed-in user. Without one: a 302 (303 after a POST) to the sign-in page with `callbackUrl` set to the
 * path and query, or to `options.redirectTo`; with `{throwError: true}` (API routes) 401
 * `{error: {code: 'UNAUTHENTICATED'}}` (`SESSION_EXPIRED` when the cookie named an expired session), as JSON
 * unless the client asks for HTML. The answer is sent with every queued Set-Cookie and the route stops (an h3
 * error is thrown after the response is out; h3 and Nuxt send nothing more).
 *
 * @param event the h3 event (`authSession` must have run for it).
 * @param options `RequireAuthOptions` from `@framework/auth`: `throwError`, `redirectTo`.
 * @throws H3Error after answering a refusal; Error when `authSession` did not run.
 * @example
 * ```ts
 * // server/api/me.get.ts
 * import { defineEventHandler } from 'h3';
 * import { requireAuth } from '@framework/nuxt';
 *
 * export default defineEventHandler(async (event) => {
 *   const user = await requireAuth(event, { throwError: true });
 *   return { email: user.email };
 * });
 * ```
 */
export function requireAuth(event: H3Event, options: RequireAuthOptions = {}): Promise<User> {
  return guarded(event, 'requireAuth', () => core.requireAuth(options));
}

/**
 * The signed-in user when they hold `role` (an array: any of them), counting the hierarchy of
 * `createAuth({ rbac })` and the roles plugins grant for the request (the active organization's role). Signed
 * out: as {@link requireAuth} with the same `options`. Without the role: 403 `{error: {code: 'FORBIDDEN'}}` as
 * JSON, or the kit's error page for clients asking for HTML. The check is `checkRole` from `@framework/auth`, as
 * in every adapter: without role definitions it fails closed with an error (500), never falling back to
 * `user.role`.
 *
 * @throws H3Error after answering a refusal; Error when `authSession` did not run or no `rbac` is configured;
 *   AuthConfigError for a role the definitions lack.
 * @example
 * ```ts
 * // server/api/admin/stats.get.ts
 * import { defineEventHandler } from 'h3';
 * import { requireRole } from '@framework/nuxt';
 *
 * export default defineEventHandler(async (event) => {
 *   const admin = await requireRole(event, 'admin');
 *   return { by: admin.email };
 * });
 * ```
 */
export function requireRole(
  event: H3Event,
  role: string | readonly string[],
  options: RequireAuthOptions = {},
): Promise<User> {
  return guarded(event, 'requireRole', () => {
    core.requireAuth(options);
    return core.requireRole(role);
  });
}

/**
 * The signed-in user when they hold `permission` (an array: any of them); with a `resource` that has an owner,
 * `resource:action:own` grants count. Signed out: as {@link requireAuth} with the same `options`. Without it: 403
 * `FORBIDDEN`, as {@link requireRole}.
 *
 * @throws H3Error after answering a refusal; Error when `authSession` did not run or no `rbac` is configured;
 *   AuthConfigError for a malformed permission.
 * @example
 * ```ts
 * // server/api/posts.post.ts
 * import { defineEventHandler } from 'h3';
 * import { requirePermission } from '@framework/nuxt';
 *
 * export default defineEventHandler(async (event) => {
 *   const author = await requirePermission(event, 'posts:create', null, { throwError: true });
 *   return { author: author.id };
 * });
 * ```
 */
export function requirePermission(
  event: H3Event,
  permission: string | readonly string[],
  resource?: OwnedResource | null,
  options: RequireAuthOptions = {},
): Promise<User> {
  return guarded(event, 'requirePermission', () => {
    core.requireAuth(options);
    return core.requirePermission(permission, resource);
  });
}
