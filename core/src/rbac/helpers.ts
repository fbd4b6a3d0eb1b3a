/**
 * Request-scoped authorization helpers (spec: "Request-scoped helpers"):
 * `hasRole`, `hasPermission`, `requireRole`, `requirePermission`. They read
 * the user and the RBAC object (`createAuth({ rbac })`) of the current
 * request scope (`auth.run`, or an adapter middleware such as Hono's
 * `authSession`).
 * @module
 */
import { UnauthenticatedError } from '../errors.js';
import { currentScope, rbacSubject } from '../scope.js';
import type { User } from '../types.js';
import { checkRole } from './check.js';
import { missingPermission } from './forbidden.js';
import { expectRBAC } from './lookup.js';
import type { OwnedResource, RBAC } from './types.js';

function scoped(caller: string): { user: User | null; rbac: RBAC } {
  const scope = currentScope(caller);
  return { user: rbacSubject(scope), rbac: expectRBAC(scope.extensions.rbac, caller) };
}

/**
 * Whether the signed-in user holds `role` (an array: any of them), directly
 * or through the hierarchy. False when nobody is signed in.
 * @throws AuthConfigError (`INVALID_CONFIG`) for an undefined role id; Error
 *   outside a request scope or when `createAuth` got no `rbac`.
 * @example
 * ```ts
 * if (hasRole(['admin', 'editor'])) showEditButton();
 * ```
 */
export function hasRole(role: string | readonly string[]): boolean {
  const { user, rbac } = scoped('hasRole');
  return rbac.hasRole(user, role);
}

/**
 * Whether the signed-in user holds `permission` (`resource:action`,
 * `resource:*`, `*` or `resource:action:own`). Give `resource` for an `:own`
 * grant to count (its `ownerId`, else `userId`, must be the user's id). An
 * array means any of the permissions. False when nobody is signed in.
 * @throws AuthConfigError (`INVALID_CONFIG`) for a malformed permission;
 *   Error outside a request scope or when `createAuth` got no `rbac`.
 * @example
 * ```ts
 * const canEdit = hasPermission('posts:edit', post); // post.ownerId === user.id for an :own grant
 * ```
 */
export function hasPermission(permission: string | readonly string[], resource?: OwnedResource | null): boolean {
  const { user, rbac } = scoped('hasPermission');
  return rbac.hasPermission(user, permission, resource);
}

/**
 * Returns the signed-in user when they hold `role` (an array: any of them).
 * @throws UnauthenticatedError (`UNAUTHENTICATED`, 401) when nobody is signed
 *   in; ForbiddenError (`FORBIDDEN`, 403) with `requiredRole` when the role is
 *   lacking; AuthConfigError for an undefined role id; Error outside a
 *   request scope or without `rbac`.
 * @example
 * ```ts
 * app.delete('/users/:id', (c) => { requireRole('admin'); … });
 * ```
 */
export function requireRole(role: string | readonly string[]): User {
  const scope = currentScope('requireRole');
  // Counts the roles plugins grant for this request, as hasRole() does; returns the user as stored.
  const refusal = checkRole(scope.extensions.rbac, rbacSubject(scope), role);
  if (refusal) throw refusal;
  return scope.user!;
}

/**
 * Returns the signed-in user when they hold `permission` (an array: any of
 * them); `resource` as for {@link hasPermission}.
 * @throws UnauthenticatedError (`UNAUTHENTICATED`, 401) when nobody is signed
 *   in; ForbiddenError (`FORBIDDEN`, 403) with `requiredPermission` when the
 *   permission is lacking; AuthConfigError for a malformed permission; Error
 *   outside a request scope or without `rbac`.
 * @example
 * ```ts
 * app.post('/posts/:id', async (c) => {
 *   const post = await posts.get(c.req.param('id'));
 *   requirePermission('posts:edit', post);
 * });
 * ```
 */
export function requirePermission(permission: string | readonly string[], resource?: OwnedResource | null): User {
  const { user, rbac } = scoped('requirePermission');
  if (!user) throw new UnauthenticatedError();
  if (!rbac.hasPermission(user, permission, resource)) throw missingPermission(permission);
  return user;
}
