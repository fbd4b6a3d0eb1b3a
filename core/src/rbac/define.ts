/**
 * `defineRBAC`: roles, permissions and hierarchy, validated and resolved once.
 * @module
 */
import { AuthConfigError } from '../errors.js';
import { resolveHierarchy } from './hierarchy.js';
import { PERMISSION_FORMS, parsePermission, satisfyingGrants } from './permission.js';
import type { OwnedResource, RBAC, RBACConfig, RBACSubject } from './types.js';
import { checkHierarchy, checkKnownRole, checkRoles } from './validate.js';
import { credentialLimits, permissionRestrictions, type CredentialLimit } from './restriction.js';

/** A required permission, parsed once: the grant keys that satisfy it. */
interface Requirement {
  always: readonly string[];
  whenOwned: readonly string[];
  /** The `resource:action:own` form: an `:own` grant satisfies it even without a resource. */
  own: boolean;
}

/** Parsed requirements are cached by text, up to this many (checks name permissions in code, so few are distinct). */
const REQUIREMENT_CACHE_LIMIT = 1024;

function ownerOf(resource: OwnedResource): unknown {
  return resource.ownerId ?? resource.userId;
}

/**
 * Defines roles, permissions and the role hierarchy (spec: "RBAC:
 * `defineRBAC`"), and returns an {@link RBAC} object with pure checks.
 *
 * - Permission patterns: `resource:action`, `resource:*` (every action on
 *   that resource only), `*` (everything), `resource:action:own`.
 * - `:own`: such a grant satisfies `resource:action` (or
 *   `resource:action:own`) only when `resource.ownerId` (or, when `ownerId`
 *   is absent, `resource.userId`) equals `user.id`. Asked as
 *   `resource:action:own` without a resource, it answers whether the user may
 *   act on their own resources at all. A plain `resource:action` grant also
 *   satisfies `resource:action:own`.
 * - A user's roles: `user.roles` when non-empty, else `user.role`, else
 *   `defaultRole`. Role ids that are not defined grant nothing.
 * - A user made by `restrictPermissions` (an API key's) holds a permission
 *   only when its roles and every restriction list grant it, and a role only
 *   when every restriction covers the role's full permission set (a role
 *   without permissions is never covered) or grants the role explicitly.
 * - `hierarchy` (`{ editor: ['viewer'] }`) is resolved transitively here, so
 *   each check costs O(number of the user's roles) set lookups.
 *
 * Pass the result to `createAuth({ rbac })` for the request-scoped helpers
 * (`hasRole`, `requirePermission`, …) and `authMiddleware`.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) with a precise message for: a
 *   hierarchy cycle (its path is named), an unknown role in `hierarchy` or
 *   `defaultRole`, a duplicate role id, a malformed permission string, or a
 *   malformed role.
 * @example
 * ```ts
 * export default defineRBAC({
 *   roles: [
 *     { id: 'admin', name: 'Administrator', permissions: ['*'] },
 *     { id: 'editor', name: 'Editor', permissions: ['posts:*', 'comments:delete:own'] },
 *     { id: 'viewer', name: 'Viewer', permissions: ['posts:read'] },
 *   ],
 *   defaultRole: 'viewer',
 *   hierarchy: { editor: ['viewer'] },
 * });
 * rbac.hasPermission(user, 'comments:delete', comment); // true for the comment's author
 * ```
 */
export function defineRBAC(config: RBACConfig): RBAC {
  if (config === null || typeof config !== 'object')
    throw new AuthConfigError('Invalid RBAC: defineRBAC needs { roles, defaultRole?, hierarchy? }');
  const roles = checkRoles(config.roles);
  const defaultRole =
    config.defaultRole === undefined ? undefined : checkKnownRole(roles, config.defaultRole, 'defaultRole');
  const inherits = resolveHierarchy([...roles.keys()], checkHierarchy(roles, config.hierarchy));
  const grants = new Map<string, ReadonlySet<string>>();
  for (const [id, closure] of inherits)
    grants.set(id, new Set([...closure].flatMap((r) => roles.get(r)?.permissions ?? [])));

  const requirements = new Map<string, Requirement>();
  function requirement(permission: string): Requirement {
    const cached = requirements.get(permission);
    if (cached) return cached;
    const parsed = parsePermission(permission);
    if (!parsed)
      throw new AuthConfigError(`Malformed permission ${JSON.stringify(permission)} (expected ${PERMISSION_FORMS})`);
    const made = { ...satisfyingGrants(parsed), own: parsed.kind === 'action' && parsed.own };
    if (requirements.size < REQUIREMENT_CACHE_LIMIT) requirements.set(permission, made);
    return made;
  }

  function rolesOf(user: RBACSubject | null | undefined): string[] {
    if (!user) return [];
    const listed =
      Array.isArray(user.roles) && user.roles.length > 0
        ? user.roles
        : typeof user.role === 'string' && user.role
          ? [user.role]
          : defaultRole
            ? [defaultRole]
            : [];
    return [...new Set(listed)].filter((id) => typeof id === 'string' && roles.has(id));
  }

  /** Whether a restriction layer admits role `id`: granted explicitly (or through a role inheriting it), or its
   * permissions cover every permission of the role. */
  function admits(limit: CredentialLimit, id: string): boolean {
    if (limit.roles.some((granted) => inherits.get(granted)?.has(id))) return true;
    const full = grants.get(id)!;
    if (full.size === 0) return false;
    const given = new Set(limit.permissions);
    return [...full].every((permission) => {
      const need = requirement(permission);
      return need.always.some((key) => given.has(key)) || (need.own && need.whenOwned.some((key) => given.has(key)));
    });
  }

  const rbac: RBAC = {
    roles,
    defaultRole,
    rolesOf,
    permissionsOf(roleId) {
      return [...grants.get(checkKnownRole(roles, roleId, 'permissionsOf()'))!].sort();
    },
    hasRole(user, role) {
      const wanted = (typeof role === 'string' ? [role] : [...role]).map((id) =>
        checkKnownRole(roles, id, 'hasRole()'),
      );
      const limits = credentialLimits(user);
      return rolesOf(user).some((held) =>
        wanted.some((id) => inherits.get(held)!.has(id) && limits.every((limit) => admits(limit, id))),
      );
    },
    hasPermission(user, permission, resource) {
      const needs = (typeof permission === 'string' ? [permission] : [...permission]).map(requirement);
      if (!user) return false;
      const isOwner = !!resource && typeof user.id === 'string' && user.id !== '' && ownerOf(resource) === user.id;
      const held = rolesOf(user).map((id) => grants.get(id)!);
      // A restricted user (an API key's) needs each restriction list to grant the permission too.
      const limits = permissionRestrictions(user).map((list) => [new Set(list)]);
      return needs.some((need) => {
        const owned = resource ? isOwner : need.own;
        const grantedBy = (sets: readonly ReadonlySet<string>[]) =>
          sets.some(
            (granted) =>
              need.always.some((key) => granted.has(key)) || (owned && need.whenOwned.some((key) => granted.has(key))),
          );
        return grantedBy(held) && limits.every(grantedBy);
      });
    },
  };
  return Object.freeze(rbac);
}
