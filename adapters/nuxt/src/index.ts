/**
 * `@framework/nuxt`: mounts `@framework/auth` in Nuxt and Nitro (and any h3 1.x app): the auth routes, the session
 * of every request, guards for server routes, the page security headers. The Vue composable is in
 * `@framework/nuxt/composables`.
 * @example
 * ```ts
 * // server/routes/auth/[...].ts
 * import { authHandler } from '@framework/nuxt';
 * import { auth } from '../../utils/auth';
 *
 * export default authHandler(auth);
 * ```
 * @module
 */
export { authHandler, type AuthHandlerOptions } from './handler.js';
export { authSession, getSession, type AuthSessionOptions } from './session.js';
export { requireAuth, requireRole, requirePermission } from './guards.js';
export { securityHeaders } from './security-headers.js';
export { toWebRequest, type ToWebRequestOptions, type ProxyOptions } from './request.js';
export type { AuthSource } from './source.js';
