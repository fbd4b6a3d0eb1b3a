/**
 * Request-scoped helpers (spec: "Request-scoped helpers"). They read the
 * scope that `auth.run(request, fn)` (or an adapter's middleware) opens with
 * `AsyncLocalStorage`, which Node, Bun, Deno and workerd (`nodejs_als`) provide.
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { processShared } from './brand.js';
import { AuthRedirect, SessionExpiredError, UnauthenticatedError } from './errors.js';
import type { Session, User } from './types.js';
import type { SessionState } from './contract/types.js';
import type { ResolvedAuthConfig } from './config.js';

/** What a request scope holds. */
export interface AuthScope extends SessionState {
  request: Request;
  config: ResolvedAuthConfig;
  /** Extra values that later features (RBAC) attach. */
  extensions: Record<string, unknown>;
  /**
   * Roles this request grants the user beyond their own, from the plugins' `requestRoles` hooks (the role in the
   * active organization, with `organizations()`). RBAC checks in the scope count them; `user` is left as stored.
   */
  grantedRoles?: readonly string[];
}

/**
 * The user as the scope's RBAC checks see them: their own roles plus {@link AuthScope.grantedRoles}.
 * @internal
 */
export function rbacSubject(scope: Pick<AuthScope, 'user' | 'grantedRoles'>): User | null {
  const { user, grantedRoles } = scope;
  if (!user || !grantedRoles?.length) return user;
  const own = user.roles ?? (user.role !== undefined ? [user.role] : []);
  return { ...user, roles: [...new Set([...own, ...grantedRoles])] };
}

/**
 * One request scope for the whole process: every copy of `@framework/auth` (ESM and CJS builds, each entry point, a
 * nested install under an adapter) reads and writes the same store, so an adapter's guard sees the scope that the
 * app's `auth.run` opened.
 */
const storage = processShared('@framework/auth.requestScope.v1', () => new AsyncLocalStorage<AuthScope>());

/**
 * The scope entered synchronously by {@link withRequestScope}; it wins over the AsyncLocalStorage one while set.
 * Shared by every copy like `storage`.
 */
const entered = processShared('@framework/auth.enteredScope.v1', () => ({ scope: undefined as AuthScope | undefined }));

/** @internal Opens a scope around `fn`. */
export function runInScope<T>(scope: AuthScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/**
 * Runs the synchronous `fn` with `scope` as the current request scope, without `AsyncLocalStorage`, and returns
 * what it returns. Adapters use it for helpers bound to their request context (Hono's `requireAuth(c)`), so
 * `getUser()`, `requireAuth()`, `requireRole()` and `requirePermission()` read a scope built by
 * `auth.openScope(request)`. The scope is left when `fn` returns or throws; nothing else can run in between, so
 * it never reaches another request.
 *
 * @throws TypeError when `fn` returns a promise: the scope would be gone after its first `await` (use `auth.run`).
 *   Whatever `fn` throws.
 * @example
 * ```ts
 * const scope = await auth.openScope(request);
 * const user = withRequestScope(scope, () => requirePermission('posts:edit'));
 * ```
 */
export function withRequestScope<T>(scope: AuthScope, fn: () => T): T {
  const previous = entered.scope;
  entered.scope = scope;
  let result: T;
  try {
    result = fn();
  } finally {
    entered.scope = previous;
  }
  if (typeof (result as { then?: unknown } | null)?.then === 'function') {
    // Its rejection would be unhandled (and end the process): it is this TypeError that reports the mistake.
    (result as PromiseLike<unknown>).then(undefined, () => {});
    throw new TypeError(
      'withRequestScope(scope, fn) runs fn synchronously; an async fn loses the scope at its first await. Use auth.run(request, fn) for async work.',
    );
  }
  return result;
}

/**
 * Whether a request scope is current: one opened by `auth.run` or an adapter's middleware (`AsyncLocalStorage`),
 * or entered with {@link withRequestScope}. Adapters that bind the session to their own context check it, so a
 * request served inside another request's scope opens its own rather than letting the global helpers read the
 * outer one.
 * @example
 * ```ts
 * if (hasRequestScope()) return auth.run(request, handle);
 * ```
 */
export function hasRequestScope(): boolean {
  return entered.scope !== undefined || storage.getStore() !== undefined;
}

/**
 * The current request scope.
 * @throws Error when called outside `auth.run` / an adapter middleware.
 */
export function currentScope(caller = 'currentScope'): AuthScope {
  const scope = entered.scope ?? storage.getStore();
  if (!scope) {
    throw new Error(
      `${caller}() was called outside a request scope. Run the handler inside auth.run(request, fn), or mount the adapter's middleware with its scope (Express: authSession(auth, { scope: true }); Fastify: register authPlugin with { scope: true }; SvelteKit: authHandle(auth, { building, scope: true }); React Router: createAuthHelpers(auth, { scope: true })). On Hono, authSession(auth) binds the session to the context: use c.get('user') or the helpers from @framework/hono (requireAuth(c), requirePermission(c, ...)), or authSession(auth, { scope: true }) for these global helpers.`,
    );
  }
  return scope;
}

/**
 * The signed-in user of the current request, or null.
 * @throws Error outside a request scope.
 * @example
 * ```ts
 * app.get('/me', (c) => c.json({ user: getUser() }));
 * ```
 */
export function getUser(): User | null {
  return currentScope('getUser').user;
}

/**
 * The session of the current request (`{user, expires}`), or null.
 * @throws Error outside a request scope.
 * @example
 * ```ts
 * const expires = getSession()?.expires;
 * ```
 */
export function getSession(): Session | null {
  return currentScope('getSession').session;
}

/**
 * Whether the current request has a valid session.
 * @throws Error outside a request scope.
 * @example
 * ```ts
 * if (!isAuthenticated()) return c.redirect('/auth/signin');
 * ```
 */
export function isAuthenticated(): boolean {
  return currentScope('isAuthenticated').user !== null;
}

/** Options of {@link requireAuth}. */
export interface RequireAuthOptions {
  /** Throw `UnauthenticatedError` (or `SessionExpiredError` for an expired session) instead of redirecting. */
  throwError?: boolean;
  /** Redirect here instead of the sign-in page. */
  redirectTo?: string;
}

/**
 * Returns the signed-in user. Without one, it throws an `AuthRedirect` to the
 * sign-in page with `callbackUrl` set to the current path (adapters answer
 * it with a redirect); with `{redirectTo}` to that URL; with
 * `{throwError: true}` it throws `UnauthenticatedError` (`UNAUTHENTICATED`,
 * 401), or `SessionExpiredError` (`SESSION_EXPIRED`, 401) when the session
 * cookie was present but expired.
 *
 * @throws AuthRedirect | UnauthenticatedError | SessionExpiredError; Error outside a request scope.
 * @example
 * ```ts
 * app.get('/dashboard', (c) => {
 *   const user = requireAuth();
 *   return c.text(`Hello ${user.name}`);
 * });
 * ```
 */
export function requireAuth(options: RequireAuthOptions = {}): User {
  const scope = currentScope('requireAuth');
  if (scope.user) return scope.user;
  if (options.throwError) throw scope.expired ? new SessionExpiredError() : new UnauthenticatedError();
  const status = scope.request.method === 'GET' || scope.request.method === 'HEAD' ? 302 : 303;
  if (options.redirectTo) throw new AuthRedirect(options.redirectTo, status);
  const url = new URL(scope.request.url);
  const target = `${scope.config.pages.signIn}?callbackUrl=${encodeURIComponent(url.pathname + url.search)}`;
  throw new AuthRedirect(target, status);
}
