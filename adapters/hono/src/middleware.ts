/**
 * `authorize`: `@framework/auth/middleware`'s `authMiddleware` as Hono middleware.
 * @module
 */
import type { MiddlewareHandler } from 'hono';
import type { AuthScope } from '@framework/auth';
import { authMiddleware, type AuthMiddlewareOptions } from '@framework/auth/middleware';
import type { AuthVariables } from './index.js';

/**
 * Hono middleware that protects the routes after it with `authMiddleware`
 * (the options and outcomes in core/README.md "Route middleware"):
 * unauthenticated API clients get 401 JSON and browsers a redirect to the
 * sign-in page (or `unauthenticatedRedirect`); users lacking `role`,
 * `roles`, `permission`, `permissions` or `authorize` get 403 (or a
 * redirect to `unauthorizedRedirect`). Role definitions come from
 * `createAuth({ rbac })` (or `options.rbac`).
 *
 * Mount it after `authSession(auth)`, which reads the session: the scope it
 * keeps on the context (`c.get('authScope')`) supplies the user with the
 * roles plugins grant for this request, the RBAC object and the sign-in page. Responses it gives still receive the session's Set-Cookie
 * headers from `authSession`.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) at creation for bad options (see
 *   `authMiddleware`); Error at request time when `authSession` did not run.
 * @example
 * ```ts
 * import { authSession, authorize } from '@framework/hono';
 *
 * const app = new Hono<{ Variables: AuthVariables }>();
 * app.use('*', authSession(auth));
 * app.use('/admin/*', authorize({ role: 'admin' }));
 * app.post('/posts', authorize({ permission: 'posts:create' }), createPost);
 * ```
 */
export function authorize(options: AuthMiddlewareOptions = {}): MiddlewareHandler<{ Variables: AuthVariables }> {
  const guard = authMiddleware(options);
  return async (c, next) => {
    const scope = c.get('authScope') as AuthScope | undefined;
    if (scope === undefined) {
      throw new Error(
        'authorize() needs the session: mount authSession(auth) before it (app.use("*", authSession(auth))).',
      );
    }
    let passed = false;
    const response = await guard(
      c.req.raw,
      async () => {
        passed = true;
        await next();
        return c.res;
      },
      { scope },
    );
    if (!passed) return response;
  };
}
