/**
 * Credential restrictions: a user object that carries a narrower grant than its roles (an API key's `permissions`
 * and `roles`). Every permission check of `defineRBAC` (and so `hasPermission`, `requirePermission`,
 * `authMiddleware` and the adapters' guards) passes only for permissions that both the user's roles and the
 * restriction grant; every role check (`hasRole`, `requireRole`, `checkRole`, `authMiddleware({ role })`, the
 * adapters' role guards) passes only for a role the restriction admits (see {@link restrictPermissions}).
 * @module
 */
import type { User } from '../types.js';

/** The property key a restriction lives under: a symbol, so it never reaches JSON or a cookie. */
const RESTRICTION = Symbol.for('@framework/auth.permissionRestriction.v2');

/** One restriction layer: the permission patterns it grants and the roles it grants explicitly. */
export interface CredentialLimit {
  readonly permissions: readonly string[];
  readonly roles: readonly string[];
}

/** Options of {@link restrictPermissions}. */
export interface RestrictionOptions {
  /**
   * Role ids granted explicitly: a role check passes for these (and the roles they inherit) even when `grants`
   * does not cover the role's full permission set. The user must still hold the role. Default none.
   */
  roles?: readonly string[];
}

/**
 * A copy of `user` whose checks are limited to `grants` (permission patterns as in `defineRBAC`:
 * `resource:action`, `resource:*`, `*`, `resource:action:own`):
 *
 * - a permission check passes only when the user's roles and `grants` both grant it;
 * - a role check passes only when the user holds the role and either `grants` covers every permission of the role
 *   (its full set, inherited ones included; a role without permissions is never covered) or `options.roles`
 *   names the role or one inheriting it.
 *
 * Restricting an already restricted user keeps both layers (a check must pass each). The restriction is an
 * enumerable symbol property: `{...user}` keeps it, `JSON.stringify` drops it.
 * @example
 * ```ts
 * const keyUser = restrictPermissions(admin, ['posts:read']);
 * rbac.hasPermission(keyUser, 'posts:edit'); // false, even for an admin
 * rbac.hasRole(keyUser, 'admin'); // false: posts:read is not the admin role's full permission set
 * rbac.hasRole(restrictPermissions(admin, ['posts:read'], { roles: ['admin'] }), 'admin'); // true
 * ```
 */
export function restrictPermissions<U extends User>(
  user: U,
  grants: readonly string[],
  options: RestrictionOptions = {},
): U {
  const layer: CredentialLimit = Object.freeze({
    permissions: Object.freeze([...grants]),
    roles: Object.freeze([...(options.roles ?? [])]),
  });
  return { ...user, [RESTRICTION]: Object.freeze([...credentialLimits(user), layer]) };
}

/** The restriction layers of `user` (empty when unrestricted). */
export function credentialLimits(user: object | null | undefined): readonly CredentialLimit[] {
  if (!user) return [];
  const value = (user as { [RESTRICTION]?: unknown })[RESTRICTION];
  return Array.isArray(value) ? (value as readonly CredentialLimit[]) : [];
}

/** The grant lists restricting `user`'s permissions (empty when unrestricted). */
export function permissionRestrictions(user: object | null | undefined): readonly (readonly string[])[] {
  return credentialLimits(user).map((layer) => layer.permissions);
}
