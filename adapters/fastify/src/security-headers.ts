/**
 * `securityHeaders()`: the kit's page security headers on every response of a Fastify app.
 * @module
 */
import type { onRequestHookHandler } from 'fastify';
import { PAGE_SECURITY_HEADERS } from '@framework/auth';

/**
 * An `onRequest` hook that sets each of `PAGE_SECURITY_HEADERS` from `@framework/auth` (`Cache-Control:
 * no-store`, `Content-Security-Policy: frame-ancestors 'none'`, `X-Frame-Options: DENY`, `Referrer-Policy:
 * same-origin`, `X-Content-Type-Options: nosniff`) before the routes run; a route that sets one of them itself
 * (say a cacheable `Cache-Control`) overrides it. The kit's own routes send the same headers already.
 *
 * @example
 * ```ts
 * app.addHook('onRequest', securityHeaders());
 * ```
 */
export function securityHeaders(): onRequestHookHandler {
  return function frameworkSecurityHeaders(_request, reply, done) {
    reply.headers(PAGE_SECURITY_HEADERS);
    done();
  };
}
