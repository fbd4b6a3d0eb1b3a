/**
 * `securityHeaders()`: the kit's page security headers as Astro middleware.
 * @module
 */
import type { MiddlewareHandler } from 'astro';
import { withSecurityHeaders } from '@framework/auth';

/**
 * Astro middleware that adds each of `PAGE_SECURITY_HEADERS` from `@framework/auth` (`Cache-Control: no-store`,
 * `Content-Security-Policy: frame-ancestors 'none'`, `X-Frame-Options: DENY`, `Referrer-Policy: same-origin`,
 * `X-Content-Type-Options: nosniff`) that a response lacks, so a page's own `Cache-Control` or CSP wins.
 * Static assets served by the adapter do not pass through middleware and keep their caching.
 *
 * @example
 * ```ts
 * // src/middleware.ts
 * import { sequence } from 'astro:middleware';
 * import { authMiddleware, securityHeaders } from '@framework/astro';
 * import { auth } from './auth';
 *
 * export const onRequest = sequence(securityHeaders(), authMiddleware(auth));
 * ```
 */
export function securityHeaders(): MiddlewareHandler {
  return async (_context, next) => withSecurityHeaders(await next());
}
