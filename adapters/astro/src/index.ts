/**
 * `@framework/astro`: mounts `@framework/auth` in an Astro 5 app with server output: the auth routes as an
 * endpoint, middleware setting `locals.user` / `locals.session`, guards for pages and endpoints, and the page
 * security headers.
 * @example
 * ```ts
 * // src/pages/auth/[...auth].ts
 * import { authEndpoint } from '@framework/astro';
 * import { auth } from '../../auth';
 *
 * export const { GET, POST, ALL } = authEndpoint(auth);
 * ```
 * @module
 */
export { authEndpoint, type AuthEndpoint } from './endpoint.js';
export { authMiddleware } from './middleware.js';
export { requireAuth, requireRole, requirePermission, type GuardContext } from './guards.js';
export { securityHeaders } from './security-headers.js';
export type { AuthLocals } from './locals.js';
export type { AuthSource } from './source.js';
