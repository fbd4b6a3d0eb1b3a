/**
 * The `ForbiddenError`s of failed role and permission checks, worded alike
 * wherever they are raised (helpers, middleware, tenancy).
 * @module
 * @internal
 */
import { ForbiddenError } from '../errors.js';

const quoted = (value: string | readonly string[]) =>
  typeof value === 'string' ? JSON.stringify(value) : value.map((v) => JSON.stringify(v)).join(' or ');
const copy = (value: string | readonly string[]): string | string[] => (typeof value === 'string' ? value : [...value]);

/** `FORBIDDEN` (403) for a missing role (an array: none of them held), with `requiredRole`. */
export function missingRole(role: string | readonly string[]): ForbiddenError {
  return new ForbiddenError(`Requires the role ${quoted(role)}`, { requiredRole: copy(role) });
}

/** `FORBIDDEN` (403) for a missing permission (an array: none of them held), with `requiredPermission`. */
export function missingPermission(permission: string | readonly string[]): ForbiddenError {
  return new ForbiddenError(`Requires the permission ${quoted(permission)}`, { requiredPermission: copy(permission) });
}
