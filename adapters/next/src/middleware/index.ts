/**
 * `@framework/next/middleware`: the Edge-runtime entry (`middleware.ts`). It imports neither `@framework/auth` nor
 * any `node:` module.
 * @example
 * ```ts
 * // middleware.ts
 * import { authMiddleware } from '@framework/next/middleware';
 *
 * export default authMiddleware({ protect: ['/dashboard'] });
 * ```
 * @module
 */
export { authMiddleware, type AuthMiddlewareOptions, type NextMiddlewareFunction } from './guard.js';
export { sessionTokenVerifier } from './session-jwt.js';
export { PATH_HEADER } from '../path-header.js';
