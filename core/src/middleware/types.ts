/**
 * Shapes of `authMiddleware` (spec: "Middleware: `authMiddleware(options)`").
 * @module
 */
import type { RBAC } from '../rbac/types.js';
import type { User } from '../types.js';
import type { AuthScope } from '../scope.js';

/** Options of `authMiddleware`. Every option is checked when the middleware is created. */
export interface AuthMiddlewareOptions {
  /**
   * Require a signed-in user. Default `true`. With `false`, anonymous requests pass; a present user is still
   * checked.
   */
  required?: boolean;
  /**
   * Where to send a browser that is not signed in: a path (`/login`) or an
   * absolute http(s) URL, used as given. Default: the sign-in page
   * (`pages.signIn`, `/auth/signin`) with `callbackUrl` set to the request's
   * path and query.
   */
  unauthenticatedRedirect?: string;
  /** A role the user must hold (directly or through the hierarchy). */
  role?: string;
  /** Roles of which the user must hold at least one. */
  roles?: string[];
  /** A permission the user must hold (`resource:action`, `resource:*`, `*`). */
  permission?: string;
  /** Permissions of which the user must hold at least one. */
  permissions?: string[];
  /**
   * Custom check, run after the role and permission checks pass. Only a
   * result of exactly `true` allows; a throw propagates to the caller.
   * `user` may come from an API key: check roles with `rbac.hasRole(user, …)`,
   * which honours the key's limits, never `user.role` (an admin's `posts:read`
   * key still has `role: 'admin'`); `isPluginCredential(user)` tells it apart.
   */
  authorize?: (user: User, request: Request) => boolean | Promise<boolean>;
  /**
   * Where to send a browser that is signed in but not allowed: a path or an
   * absolute http(s) URL. Default: a 403 page. API clients always get 403.
   */
  unauthorizedRedirect?: string;
  /**
   * The role definitions for `role`/`roles`/`permission`/`permissions`.
   * Default: the context's `rbac`, else the one given to `createAuth({ rbac })`.
   */
  rbac?: RBAC;
}

/**
 * The optional third argument of the middleware, shaped like @framework/testing's
 * `createMockContext({ env, auth })`. When `auth` is present the user comes
 * from `auth.getUser()`; otherwise from the current request scope.
 */
export interface AuthMiddlewareContext {
  env?: Record<string, unknown>;
  auth?: { getUser(): Promise<User | null> | User | null };
  /** Role definitions; wins over `options.rbac` and the scope's. */
  rbac?: RBAC;
  /**
   * The request scope to read (user, granted roles, sign-in page, role definitions) when the adapter keeps it on
   * its own request context (`auth.openScope`) rather than in `AsyncLocalStorage`. Default: the current scope.
   */
  scope?: AuthScope;
}

/**
 * A Web-standard middleware: it answers itself, or returns what `next()` returns. `request` may be a function
 * returning it (a `RequestSource`), called only to answer a refusal or for `options.authorize`, so an adapter
 * whose Web `Request` is built on demand builds none for a request that passes.
 */
export type AuthMiddleware = (
  request: Request | (() => Request),
  next: () => Response | Promise<Response>,
  context?: AuthMiddlewareContext,
) => Promise<Response>;
