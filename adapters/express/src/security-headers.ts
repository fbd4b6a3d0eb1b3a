/**
 * `securityHeaders()`: the kit's page security headers on every response of
 * an Express app.
 * @module
 */
import type { RequestHandler } from 'express';
import { PAGE_SECURITY_HEADERS } from '@framework/auth';

/**
 * Middleware that sets each of `PAGE_SECURITY_HEADERS` from
 * `@framework/auth` (`Cache-Control: no-store`, `Content-Security-Policy:
 * frame-ancestors 'none'`, `X-Frame-Options: DENY`, `Referrer-Policy:
 * same-origin`, `X-Content-Type-Options: nosniff`) before the routes run; a
 * route that sets one of them itself (say a cacheable `Cache-Control`)
 * overrides it. The kit's own routes send the same headers already.
 *
 * @example
 * ```ts
 * app.use(securityHeaders());
 * app.use(authRouter(auth));
 * ```
 */
export function securityHeaders(): RequestHandler {
  return (_req, res, next) => {
    res.set(PAGE_SECURITY_HEADERS);
    next();
  };
}
