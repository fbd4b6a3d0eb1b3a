/**
 * `authMiddleware(auth)`: the session of every request as Astro middleware, and the answers to the guards.
 * @module
 */
import type { MiddlewareHandler } from 'astro';
import { withSetCookies, type AuthScope } from '@framework/auth';
import type { AuthLocals } from './locals.js';
import { authResolver, type AuthSource } from './source.js';
import { attachState } from './state.js';

function underBase(pathname: string, base: string): boolean {
  return pathname === base || pathname.startsWith(`${base}/`);
}

/**
 * Astro middleware for `@framework/auth`:
 * - outside `auth.config.basePath` (the auth endpoint reads its own session), it reads the session of the request
 *   from its cookie or API key and sets `locals.user` and `locals.session` ({@link AuthLocals}; null when signed
 *   out), for pages, endpoints and later middleware;
 * - what the guards (`requireAuth`, `requireRole`, `requirePermission`) throw in a page's frontmatter or an
 *   endpoint becomes the kit's answer: a 302 (303 after a POST) to the sign-in page with `callbackUrl`, 401
 *   `UNAUTHENTICATED` or 403 `FORBIDDEN` as JSON for API clients, the kit's error page for browsers; other errors
 *   go on to Astro;
 * - refreshed or cleared session cookies are appended to the response;
 * - a refused read (an API key over its budget) is answered as the kit does (429 `RATE_LIMITED`).
 *
 * Prerendered pages (built at build time) pass straight through: they have no request cookies.
 *
 * @param auth the engine from `createAuth`, or a function resolving it once.
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
export function authMiddleware(auth: AuthSource): MiddlewareHandler {
  const engine = authResolver(auth);
  return async (context, next) => {
    if (context.isPrerendered) return next();
    const kit = await engine();
    if (underBase(context.url.pathname, kit.config.basePath)) return next();
    let scope: AuthScope;
    try {
      scope = await kit.openScope(context.request, context.clientAddress ? { ip: context.clientAddress } : {});
    } catch (thrown) {
      const refused = kit.toResponse(thrown, context.request);
      if (refused) return refused;
      throw thrown;
    }
    const locals = context.locals as AuthLocals;
    locals.user = scope.user;
    locals.session = scope.session;
    attachState(context.locals, { auth: kit, scope });
    let response: Response;
    try {
      response = await next();
    } catch (thrown) {
      const refused = kit.toResponse(thrown, context.request);
      if (!refused) throw thrown;
      response = refused;
    }
    return withSetCookies(response, scope.headers.getSetCookie());
  };
}
