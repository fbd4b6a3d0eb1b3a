/**
 * Role-based access control: `defineRBAC` (re-exported by
 * `@framework/auth/convention`) and the request-scoped helpers (re-exported
 * by `@framework/auth`).
 * @module
 */
export { defineRBAC } from './define.js';
export { hasRole, hasPermission, requireRole, requirePermission } from './helpers.js';
export { isRBAC } from './lookup.js';
export { checkRole } from './check.js';
export type { RBAC, RBACConfig, Role, OwnedResource, RBACSubject } from './types.js';
