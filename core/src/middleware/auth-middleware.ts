/**
 * `authMiddleware`: route protection as a Web-standard middleware.
 * @module
 */
import { ForbiddenError } from '../errors.js';
import { missingPermission, missingRole } from '../rbac/forbidden.js';
import { expectRBAC } from '../rbac/lookup.js';
import type { RBAC } from '../rbac/types.js';
import { currentScope, rbacSubject, type AuthScope } from '../scope.js';
import type { User } from '../types.js';
import { checkOptions } from './options.js';
import { DEFAULT_SIGN_IN_PAGE, forbiddenResponse, unauthenticatedResponse } from './responses.js';
import type { AuthMiddleware, AuthMiddlewareContext, AuthMiddlewareOptions } from './types.js';
import { isThenable } from '../thenable.js';
import { requestOf } from '../http/adapter-kit.js';

/** An `authorize` answer: anything but `true` refuses. */
const refusedUnlessTrue = (allowed: unknown): ForbiddenError | null =>
  allowed === true ? null : new ForbiddenError('You are not allowed to access this resource');

/** The request scope when there is one (`auth.run`, an adapter middleware), else undefined. */
function optionalScope(): AuthScope | undefined {
  try {
    return currentScope('authMiddleware');
  } catch {
    return undefined;
  }
}

function readUser(
  context: AuthMiddlewareContext | undefined,
  scope: AuthScope | undefined,
): User | null | Promise<User | null> {
  if (context?.auth && typeof context.auth.getUser === 'function') {
    const user = context.auth.getUser();
    return isThenable(user) ? Promise.resolve(user).then((found) => found ?? null) : (user ?? null);
  }
  if (scope) return rbacSubject(scope);
  throw new Error(
    'authMiddleware() found no user: call it inside a request scope (auth.run(request, fn), or after an adapter middleware such as authSession(auth) for Hono), or pass a context with auth.getUser().',
  );
}

/** Whether `options` ask anything of a signed-in user: without it, {@link denial} has nothing to refuse. */
function hasChecks(options: Readonly<AuthMiddlewareOptions>): boolean {
  return (
    options.role !== undefined ||
    options.roles !== undefined ||
    options.permission !== undefined ||
    options.permissions !== undefined ||
    options.authorize !== undefined
  );
}

/**
 * The first failed check as a ForbiddenError, or null when every configured check passes. Every option it reads is
 * one {@link hasChecks} counts.
 */
function denial(
  options: Readonly<AuthMiddlewareOptions>,
  user: User,
  request: () => Request,
  rbac: () => RBAC,
): ForbiddenError | null | Promise<ForbiddenError | null> {
  if (options.role !== undefined && !rbac().hasRole(user, options.role)) return missingRole(options.role);
  if (options.roles !== undefined && !rbac().hasRole(user, options.roles)) return missingRole(options.roles);
  if (options.permission !== undefined && !rbac().hasPermission(user, options.permission))
    return missingPermission(options.permission);
  if (options.permissions !== undefined && !rbac().hasPermission(user, options.permissions))
    return missingPermission(options.permissions);
  if (!options.authorize) return null;
  const allowed = options.authorize(user, request());
  return isThenable(allowed) ? Promise.resolve(allowed).then(refusedUnlessTrue) : refusedUnlessTrue(allowed);
}

/**
 * Creates a Web-standard middleware `(request, next, context?) → Response`
 * that protects what `next` serves (spec: "Middleware: `authMiddleware`";
 * also exported as `middleware`).
 *
 * The user comes from `context.auth.getUser()` when a context with `auth`
 * is given (the shape of `createMockContext` from `@framework/testing`), else from the request
 * scope (`auth.run`, or an adapter middleware such as Hono's `authSession`).
 * Role definitions come from `context.rbac`, `options.rbac`, or
 * `createAuth({ rbac })`, in that order.
 *
 * Every option given must pass (`role` and `permission` together need both);
 * an array (`roles`, `permissions`) needs any one of its entries:
 * 1. No user: with `required: false` the request passes; else API clients
 *    get 401 `{error: {code: 'UNAUTHENTICATED' | 'SESSION_EXPIRED', message}}`
 *    and browsers a 302 (GET/HEAD; 303 otherwise) to `unauthenticatedRedirect`
 *    or to the sign-in page (`pages.signIn`, default `/auth/signin`) with
 *    `callbackUrl` set to the request's path and query.
 * 2. `role`, `roles`, `permission`, `permissions`, then `authorize(user,
 *    request)` (only `true` allows). On the first failure API clients get
 *    403 `{error: {code: 'FORBIDDEN', message}}`; browsers a redirect to
 *    `unauthorizedRedirect`, or a 403 HTML page.
 * 3. Otherwise it returns `next()`'s response unchanged.
 *
 * API client or browser: `Sec-Fetch-Mode` decides when present (`navigate`
 * is a browser); else `Accept: text/html` is a browser, and JSON `Accept` or
 * body, `X-Requested-With: XMLHttpRequest` or `Authorization` an API client;
 * anything else is treated as a browser, as the kit's routes do.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) at creation for an unknown
 *   option, a wrong type, an empty `roles`/`permissions`, a malformed
 *   permission, a redirect that is neither a path nor an http(s) URL, or
 *   (with `options.rbac`) an undefined role. At request time: Error when no
 *   user source exists or a role/permission option is set without role
 *   definitions; what `authorize` or `next` throws.
 * @example
 * ```ts
 * import { authMiddleware } from '@framework/auth/middleware';
 *
 * const adminOnly = authMiddleware({ role: 'admin', unauthorizedRedirect: '/' });
 * const response = await auth.run(request, () => adminOnly(request, () => renderAdmin(request)));
 *
 * // In a test, with a mock context from @framework/testing:
 * const res = await authMiddleware({ permission: 'posts:edit' })(
 *   createMockRequest('/posts/1/edit'), async () => new Response('ok'),
 *   { ...createMockContext({ auth: { getUser: async () => user } }), rbac },
 * );
 * ```
 */
export function authMiddleware(options?: AuthMiddlewareOptions): AuthMiddleware {
  const checked = checkOptions(options);
  const required = checked.required ?? true;
  const checks = hasChecks(checked);

  /** The answer for `user` (null: signed out). Declared once: a request builds no closure unless a check needs one. */
  function decide(
    user: User | null,
    source: Request | (() => Request),
    next: () => Response | Promise<Response>,
    context: AuthMiddlewareContext | undefined,
    scope: AuthScope | undefined,
  ): Response | Promise<Response> {
    if (!user) {
      if (!required) return next();
      return unauthenticatedResponse(requestOf(source), {
        expired: scope?.expired === true,
        redirectTo: checked.unauthenticatedRedirect,
        signInPage: scope?.config.pages.signIn ?? DEFAULT_SIGN_IN_PAGE,
      });
    }
    if (!checks) return next();
    let rbac: RBAC | undefined;
    const lookup = () =>
      (rbac ??= expectRBAC(context?.rbac ?? checked.rbac ?? scope?.extensions.rbac, 'authMiddleware'));
    const request = () => requestOf(source);
    const answer = (denied: ForbiddenError | null) =>
      denied ? forbiddenResponse(request(), denied, checked.unauthorizedRedirect) : next();
    const denied = denial(checked, user, request, lookup);
    return denied instanceof Promise ? denied.then(answer) : answer(denied);
  }

  // Not async: a request that passes with a user read synchronously waits on no promise of its own (the scope's
  // user and the role checks are synchronous; `authorize` and a context's `getUser` may return promises).
  return function protect(source, next, context) {
    try {
      const scope = context?.scope ?? optionalScope();
      const user = readUser(context, scope);
      return user instanceof Promise
        ? user.then((found) => decide(found, source, next, context, scope))
        : Promise.resolve(decide(user, source, next, context, scope));
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

export const middleware = authMiddleware;
