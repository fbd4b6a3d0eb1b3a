/**
 * `securityHeaders()`: the kit's page security headers as a SvelteKit
 * `handle` hook.
 * @module
 */
import type { Handle } from '@sveltejs/kit';
import { withSecurityHeaders } from '@framework/auth';

/**
 * A `handle` hook that adds each of `PAGE_SECURITY_HEADERS` from
 * `@framework/auth` (`Cache-Control: no-store`, `Content-Security-Policy:
 * frame-ancestors 'none'`, `X-Frame-Options: DENY`, `Referrer-Policy:
 * same-origin`, `X-Content-Type-Options: nosniff`) that a response lacks,
 * so a route's own `Cache-Control` (from `setHeaders`) or SvelteKit's CSP
 * (`kit.csp`) wins. Static assets served by the adapter do not pass through
 * hooks and keep their caching.
 *
 * @example
 * ```ts
 * // src/hooks.server.ts
 * export const handle = sequence(securityHeaders(), triggerHandle(runtime), authHandle(auth, { building }));
 * ```
 */
export function securityHeaders(): Handle {
  return async ({ event, resolve }) => withSecurityHeaders(await resolve(event));
}
