/**
 * Definition-time checks of an RBAC config. Every failure is an
 * `AuthConfigError` (`INVALID_CONFIG`) whose message names the role and the
 * value at fault.
 * @module
 * @internal
 */
import { AuthConfigError } from '../errors.js';
import { PERMISSION_FORMS, parsePermission } from './permission.js';
import type { RBACConfig, Role } from './types.js';

const ROLE_ID = /^\S{1,64}$/;
const quote = (value: unknown) => JSON.stringify(value) ?? String(value);
const fail = (message: string): never => {
  throw new AuthConfigError(`Invalid RBAC: ${message}`);
};

function checkRole(role: unknown, index: number): Role {
  if (role === null || typeof role !== 'object')
    return fail(`roles[${index}] must be an object with id, name and permissions`);
  const { id, name, permissions, description } = role as Partial<Role>;
  if (typeof id !== 'string' || !ROLE_ID.test(id)) {
    return fail(
      `roles[${index}].id must be a non-empty string without white space, at most 64 characters; got ${quote(id)}`,
    );
  }
  if (typeof name !== 'string') fail(`role ${quote(id)} needs a string name`);
  if (description !== undefined && typeof description !== 'string')
    fail(`role ${quote(id)} has a non-string description`);
  if (!Array.isArray(permissions)) return fail(`role ${quote(id)} needs a permissions array`);
  for (const permission of permissions) {
    if (!parsePermission(permission))
      fail(`role ${quote(id)} has a malformed permission ${quote(permission)} (expected ${PERMISSION_FORMS})`);
  }
  return Object.freeze({ ...(role as Role), permissions: Object.freeze([...permissions]) as string[] });
}

/** The roles by id, frozen. Rejects a non-array, a malformed role or permission, and a duplicate id. */
export function checkRoles(roles: unknown): Map<string, Readonly<Role>> {
  if (!Array.isArray(roles)) return fail('`roles` must be an array of roles');
  const byId = new Map<string, Readonly<Role>>();
  roles.forEach((raw, index) => {
    const role = checkRole(raw, index);
    if (byId.has(role.id)) fail(`duplicate role id ${quote(role.id)}`);
    byId.set(role.id, role);
  });
  return byId;
}

const defined = (roles: ReadonlyMap<string, unknown>) => [...roles.keys()].map(quote).join(', ') || 'none';

/** Rejects a role id that is not defined; `where` names the config field. */
export function checkKnownRole(roles: ReadonlyMap<string, unknown>, id: unknown, where: string): string {
  if (typeof id !== 'string' || !roles.has(id))
    fail(`${where} names an unknown role ${quote(id)} (defined: ${defined(roles)})`);
  return id as string;
}

/** The hierarchy as a map, every key and inherited id a defined role. */
export function checkHierarchy(
  roles: ReadonlyMap<string, unknown>,
  hierarchy: RBACConfig['hierarchy'],
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (hierarchy === undefined) return out;
  if (hierarchy === null || typeof hierarchy !== 'object' || Array.isArray(hierarchy)) {
    return fail('`hierarchy` must be an object mapping a role id to the role ids it inherits');
  }
  for (const [id, parents] of Object.entries(hierarchy)) {
    checkKnownRole(roles, id, 'hierarchy');
    if (!Array.isArray(parents)) fail(`hierarchy[${quote(id)}] must be an array of role ids`);
    out.set(
      id,
      parents.map((parent) => checkKnownRole(roles, parent, `hierarchy[${quote(id)}]`)),
    );
  }
  return out;
}
