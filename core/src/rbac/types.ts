/**
 * Record shapes of role-based access control (spec: "Role (RBAC)" and
 * "RBAC: `defineRBAC`").
 * @module
 */
import type { User } from '../types.js';

/** A role: an id, a display name and the permissions it grants (spec: "Role (RBAC)"). */
export interface Role {
  /** Unique id, e.g. `editor`. Non-empty, no white space, at most 64 characters. */
  id: string;
  /** Display name, e.g. `Editor`. */
  name: string;
  /**
   * Permission patterns this role grants: `resource:action`, `resource:*`
   * (every action on that resource only), `*` (everything) or
   * `resource:action:own` (the action on resources the user owns).
   */
  permissions: string[];
  description?: string;
}

/** Input of `defineRBAC`. */
export interface RBACConfig {
  /** Every role. Ids must be unique. */
  roles: Role[];
  /** The role of a user who has neither `roles` nor `role`. Must be one of `roles`. */
  defaultRole?: string;
  /**
   * Inheritance: a role id mapped to the role ids whose permissions it
   * inherits, transitively (`{ editor: ['viewer'] }`). Cycles are rejected.
   */
  hierarchy?: Record<string, string[]>;
}

/**
 * What an `:own` permission is checked against: the resource's owner is
 * `ownerId`, or `userId` when `ownerId` is absent (null or undefined).
 */
export interface OwnedResource {
  ownerId?: string | null;
  userId?: string | null;
}

/** The subject of a check: anything with the User's `id`, `role` and `roles`. */
export type RBACSubject = Pick<User, 'id' | 'role' | 'roles'>;

/**
 * The RBAC object returned by `defineRBAC`: pure checks over a user,
 * resolved once at definition time. Pass it to `createAuth({ rbac })` so the
 * request-scoped helpers and `authMiddleware` use it.
 */
export interface RBAC {
  /** The roles by id, as defined (frozen). */
  readonly roles: ReadonlyMap<string, Readonly<Role>>;
  /** The default role id, when one was given. */
  readonly defaultRole: string | undefined;
  /**
   * Whether `user` holds `permission` (an array: any of them). `resource` is
   * needed for an `:own` grant to apply: it counts only when the resource's
   * owner is `user.id`. A null/undefined user holds nothing.
   * @throws AuthConfigError (`INVALID_CONFIG`) for a malformed `permission`.
   */
  hasPermission(
    user: RBACSubject | null | undefined,
    permission: string | readonly string[],
    resource?: OwnedResource | null,
  ): boolean;
  /**
   * Whether `user` holds `role` (an array: any of them). A role is held
   * directly, or through the hierarchy: an `editor` that inherits `viewer`
   * holds `viewer` too.
   * @throws AuthConfigError (`INVALID_CONFIG`) for a role id that is not defined.
   */
  hasRole(user: RBACSubject | null | undefined, role: string | readonly string[]): boolean;
  /**
   * The full permission set of a role, inherited ones included, sorted.
   * @throws AuthConfigError (`INVALID_CONFIG`) for a role id that is not defined.
   */
  permissionsOf(roleId: string): string[];
  /**
   * The user's defined role ids: `user.roles` when non-empty, else
   * `[user.role]` when set, else `[defaultRole]`; ids that are not defined
   * are dropped (they grant nothing).
   */
  rolesOf(user: RBACSubject | null | undefined): string[];
}
