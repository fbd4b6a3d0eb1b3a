/**
 * Factory-time checks of `authMiddleware` options: each failure is an
 * `AuthConfigError` (`INVALID_CONFIG`) naming the option.
 * @module
 * @internal
 */
import { AuthConfigError } from '../errors.js';
import { isRBAC } from '../rbac/lookup.js';
import { PERMISSION_FORMS, parsePermission } from '../rbac/permission.js';
import type { RBAC } from '../rbac/types.js';
import type { AuthMiddlewareOptions } from './types.js';

const KNOWN = new Set<string>([
  'required',
  'unauthenticatedRedirect',
  'role',
  'roles',
  'permission',
  'permissions',
  'authorize',
  'unauthorizedRedirect',
  'rbac',
]);

const fail = (message: string): never => {
  throw new AuthConfigError(`Invalid authMiddleware options: ${message}`);
};

function checkRedirect(name: string, value: unknown): void {
  if (value === undefined) return;
  const ok =
    typeof value === 'string' &&
    ((value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')) ||
      /^https?:\/\/[^/\\]/i.test(value));
  if (!ok) fail(`${name} must be a path starting with "/" or an absolute http(s) URL; got ${JSON.stringify(value)}`);
}

function checkRoles(name: string, value: unknown, rbac: RBAC | undefined): void {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0 || list.some((r) => typeof r !== 'string' || r === '')) {
    fail(`${name} must be ${name === 'role' ? 'a non-empty string' : 'a non-empty array of role ids'}`);
  }
  const unknown = rbac ? (list as string[]).find((r) => !rbac.roles.has(r)) : undefined;
  if (unknown !== undefined) fail(`${name} names an unknown role ${JSON.stringify(unknown)}`);
}

function checkPermissions(name: string, value: unknown): void {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0)
    fail(`${name} must be ${name === 'permission' ? 'a string' : 'a non-empty array'}`);
  const bad = (list as unknown[]).find((p) => !parsePermission(p));
  if (bad !== undefined)
    fail(`${name} has a malformed permission ${JSON.stringify(bad)} (expected ${PERMISSION_FORMS})`);
}

/** Validates `options` and returns them (frozen). */
export function checkOptions(options: unknown): Readonly<AuthMiddlewareOptions> {
  if (options === undefined) return Object.freeze({});
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return fail('expected an object');
  const o = options as Record<string, unknown>;
  const unknown = Object.keys(o).find((k) => !KNOWN.has(k));
  if (unknown !== undefined) fail(`unknown option ${JSON.stringify(unknown)} (known: ${[...KNOWN].join(', ')})`);
  if (o.required !== undefined && typeof o.required !== 'boolean') fail('required must be a boolean');
  if (o.rbac !== undefined && !isRBAC(o.rbac)) fail('rbac must be the result of defineRBAC()');
  if (o.authorize !== undefined && typeof o.authorize !== 'function')
    fail('authorize must be a function (user, request) => boolean');
  checkRedirect('unauthenticatedRedirect', o.unauthenticatedRedirect);
  checkRedirect('unauthorizedRedirect', o.unauthorizedRedirect);
  const rbac = o.rbac as RBAC | undefined;
  if (o.role !== undefined) checkRoles('role', o.role, rbac);
  if (o.roles !== undefined) checkRoles('roles', o.roles, rbac);
  if (o.permission !== undefined) checkPermissions('permission', o.permission);
  if (o.permissions !== undefined) checkPermissions('permissions', o.permissions);
  return Object.freeze({ ...(o as AuthMiddlewareOptions) });
}
