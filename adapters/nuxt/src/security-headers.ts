/**
 * `securityHeaders()`: the kit's page security headers as an h3 middleware.
 * @module
 */
import { defineEventHandler, type EventHandler, type EventHandlerRequest } from 'h3';
import { PAGE_SECURITY_HEADERS } from '@framework/auth';

/**
 * An h3 middleware (Nitro `server/middleware/`) that sets each of `PAGE_SECURITY_HEADERS` from `@framework/auth`
 * (`Cache-Control: no-store`, `Content-Security-Policy: frame-ancestors 'none'`, `X-Frame-Options: DENY`,
 * `Referrer-Policy: same-origin`, `X-Content-Type-Options: nosniff`) on the response before the route runs; a
 * route that sets one itself wins. Nitro serves `public/` and the built assets (`/_nuxt/`) before middleware, so
 * they keep their caching.
 *
 * @example
 * ```ts
 * // server/middleware/0.security-headers.ts (middleware run in file-name order)
 * import { securityHeaders } from '@framework/nuxt';
 *
 * export default securityHeaders();
 * ```
 */
export function securityHeaders(): EventHandler<EventHandlerRequest, void> {
  return defineEventHandler((event) => {
    const res = event.node.res;
    for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS))
      if (!res.hasHeader(name)) res.setHeader(name, value);
  });
}
