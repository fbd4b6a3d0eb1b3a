/**
 * The request header through which the middleware tells Server Components the path being rendered (Next.js gives
 * them no URL), so that a guard can send a signed-out visitor back there after sign-in. Edge-safe: no imports.
 * @module
 */

/** `x-framework-path`: the pathname and query of the request, set by `authMiddleware` on the requests it passes. */
export const PATH_HEADER = 'x-framework-path';
