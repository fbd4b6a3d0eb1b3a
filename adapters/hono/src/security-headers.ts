/**
 * `securityHeaders()`: the kit's page security headers on every response of
 * a Hono app.
 * @module
 */
import type { MiddlewareHandler } from 'hono';
import { withSecurityHeaders } from '@framework/auth';

/**
 * Middleware that adds each of `PAGE_SECURITY_HEADERS` from
 * `@framework/auth` (`Cache-Control: no-store`, `Content-Security-Policy:
 * frame-ancestors 'none'`, `X-Frame-Options: DENY`, `Referrer-Policy:
 * same-origin`, `X-Content-Type-Options: nosniff`) that a response lacks,
 * after the handler ran, so a route's own `Cache-Control` or CSP wins.
 * Register it first, so it wraps every route.
 *
 * @example
 * ```ts
 * const app = new Hono();
 * app.use(securityHeaders());
 * mountAuth(app, auth);
 * ```
 */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = withSecurityHeaders(c.res);
    if (res !== c.res) c.res = res;
  };
}
