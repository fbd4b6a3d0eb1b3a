/**
 * `checkRole`: the one role check behind `requireRole` and every adapter's
 * role guard, so they cannot drift apart.
 * @module
 */
import { UnauthenticatedError, type ForbiddenError } from '../errors.js';
import type { User } from '../types.js';
import { missingRole } from './forbidden.js';
import { expectRBAC } from './lookup.js';

/**
 * Checks that `user` holds `role` (an array: any of them), directly or
 * through the hierarchy, under the role definitions `rbac` (the
 * `createAuth({ rbac })` object, as a request scope's `extensions.rbac`
 * carries it). Roles come only from those definitions: without them the
 * check fails closed with an error, never falling back to `user.role`.
 * Adapters translate the outcome into their framework's answer.
 *
 * @param rbac the RBAC object of the request (`scope.extensions.rbac`).
 * @param user the signed-in user, or null / undefined.
 * @param role the role id, or ids of which any will do.
 * @returns null when the user holds the role; an `UnauthenticatedError`
 *   (`UNAUTHENTICATED`, 401) when nobody is signed in; a `ForbiddenError`
 *   (`FORBIDDEN`, 403, with `requiredRole`) otherwise. The errors are
 *   returned, not thrown, so a guard can redirect instead.
 * @throws Error when no role definitions were configured; AuthConfigError
 *   (`INVALID_CONFIG`) for a role id they do not define.
 * @example
 * ```ts
 * const refusal = checkRole(scope.extensions.rbac, scope.user, 'admin');
 * if (refusal) throw refusal; // or redirect on UnauthenticatedError
 * ```
 */
export function checkRole(
  rbac: unknown,
  user: User | null | undefined,
  role: string | readonly string[],
): UnauthenticatedError | ForbiddenError | null {
  const defined = expectRBAC(rbac, 'requireRole');
  if (!user) return new UnauthenticatedError();
  return defined.hasRole(user, role) ? null : missingRole(role);
}
