/**
 * Finding the RBAC object configured for a request.
 * @module
 * @internal
 */
import type { RBAC } from './types.js';

/** Whether `value` looks like an object made by `defineRBAC`. */
export function isRBAC(value: unknown): value is RBAC {
  if (value === null || typeof value !== 'object') return false;
  const candidate = value as Partial<Record<keyof RBAC, unknown>>;
  return (
    typeof candidate.hasRole === 'function' &&
    typeof candidate.hasPermission === 'function' &&
    typeof candidate.rolesOf === 'function'
  );
}

/**
 * `value` as an RBAC object.
 * @throws Error naming `caller` when no RBAC object was configured.
 */
export function expectRBAC(value: unknown, caller: string): RBAC {
  if (isRBAC(value)) return value;
  throw new Error(
    `${caller}() needs role definitions, but none were configured. Pass createAuth({ rbac: defineRBAC({ roles: [...] }) }) (defineRBAC is exported by @framework/auth/convention).`,
  );
}
