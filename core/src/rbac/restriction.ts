/**
 * Permission restrictions: a user object that carries a narrower grant list
 * than its roles (an API key's `permissions`). Every permission check of
 * `defineRBAC` (and so `hasPermission`, `requirePermission`,
 * `authMiddleware` and the adapters' guards) passes only for permissions
 * that both the user's roles and the restriction grant.
 * @module
 */
import type { User } from '../types.js';

/** The property key a restriction lives under: a symbol, so it never reaches JSON or a cookie. */
const RESTRICTION = Symbol.for('@framework/auth.permissionRestriction');

/**
 * A copy of `user` whose permission checks are limited to `grants`
 * (permission patterns as in `defineRBAC`: `resource:action`, `resource:*`,
 * `*`, `resource:action:own`). Restricting an already restricted user keeps
 * both lists (a check must pass each). The restriction is an enumerable
 * symbol property: `{...user}` keeps it, `JSON.stringify` drops it.
 * @example
 * ```ts
 * const keyUser = restrictPermissions(user, ['posts:read']);
 * rbac.hasPermission(keyUser, 'posts:edit'); // false, even for an admin
 * ```
 */
export function restrictPermissions<U extends User>(user: U, grants: readonly string[]): U {
  const previous = permissionRestrictions(user);
  return { ...user, [RESTRICTION]: Object.freeze([...previous, Object.freeze([...grants])]) };
}

/** The grant lists restricting `user` (empty when unrestricted). */
export function permissionRestrictions(user: object | null | undefined): readonly (readonly string[])[] {
  if (!user) return [];
  const value = (user as { [RESTRICTION]?: unknown })[RESTRICTION];
  return Array.isArray(value) ? (value as readonly (readonly string[])[]) : [];
}
