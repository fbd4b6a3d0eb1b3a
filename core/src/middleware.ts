/**
 * `@framework/auth/middleware`: route protection as a Web-standard
 * middleware, `(request, next, context?) → Response` (spec: "Middleware:
 * `authMiddleware(options)`").
 *
 * @example
 * ```ts
 * import { middleware } from '@framework/auth/middleware';
 *
 * export default middleware({ roles: ['admin', 'editor'], unauthorizedRedirect: '/' });
 * ```
 * @module
 */
export { authMiddleware, middleware } from './middleware/auth-middleware.js';
export { guardScope } from './middleware/guard.js';
export type { AuthMiddleware, AuthMiddlewareContext, AuthMiddlewareOptions } from './middleware/types.js';
