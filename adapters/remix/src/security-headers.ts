/**
 * The kit's page security headers in a React Router / Remix app: a `headers`
 * export for the root route, and a wrapper for resource routes and loaders
 * whose Responses (returned or thrown) skip the `headers` export.
 * @module
 */
import { applySecurityHeaders, withSecurityHeaders } from '@framework/auth';

/**
 * A route module `headers` function: the parent's headers plus each of
 * `PAGE_SECURITY_HEADERS` from `@framework/auth` (`Cache-Control: no-store`,
 * `Content-Security-Policy: frame-ancestors 'none'`, `X-Frame-Options:
 * DENY`, `Referrer-Policy: same-origin`, `X-Content-Type-Options: nosniff`)
 * the route's loader headers do not set. Export it from `app/root.tsx`:
 * React Router hands a parent's headers to child routes that have no
 * `headers` export, so every document gets them. Loader cookies ride along
 * as React Router adds them itself.
 *
 * @example
 * ```ts
 * // app/root.tsx
 * export { securityHeaders as headers } from '@framework/remix';
 * ```
 */
export function securityHeaders(args: { parentHeaders?: Headers; loaderHeaders?: Headers } = {}): Headers {
  const headers = new Headers(args.parentHeaders);
  for (const [name, value] of args.loaderHeaders ?? [])
    if (name !== 'set-cookie' && !headers.has(name)) headers.set(name, value);
  return applySecurityHeaders(headers);
}

/**
 * Wraps a loader or action so that every `Response` it returns or throws (a
 * resource route's answer, a redirect, the kit's 401 / 403) carries the
 * page security headers it lacks. Data that is not a Response passes
 * through untouched (the `headers` export covers documents).
 *
 * @example
 * ```ts
 * // app/routes/api.me.ts
 * export const loader = secureRoute(withAuth(async ({ request }) => Response.json(await requireUser(request))));
 * ```
 */
export function secureRoute<A, R>(route: (args: A) => R | Promise<R>): (args: A) => Promise<R> {
  return async (args) => {
    try {
      const result = await route(args);
      return (result instanceof Response ? withSecurityHeaders(result) : result) as R;
    } catch (thrown) {
      throw thrown instanceof Response ? withSecurityHeaders(thrown) : thrown;
    }
  };
}
