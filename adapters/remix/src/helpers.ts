/**
 * `createAuthHelpers(auth)`: session helpers for loaders and actions.
 * @module
 */
import {
  checkRole,
  SessionExpiredError,
  UnauthenticatedError,
  type Auth,
  type AuthScope,
  type Session,
  type User,
} from '@framework/auth';
import { attachCookies, withCookies, type WithCookies } from './cookies.js';
import type { RouteArgs } from './args.js';

/** A request's session: `user`, `session`, `expired`, and `headers` with any Set-Cookie to send back. */
export type RequestSession = Pick<AuthScope, 'user' | 'session' | 'expired' | 'headers'>;

/** Options of `requireUser` and `requireRole`. */
export interface RequireUserOptions {
  /** Redirect signed-out visitors here instead of the sign-in page (with `callbackUrl`). */
  redirectTo?: string;
  /** Throw the kit's 401 (`UNAUTHENTICATED` / `SESSION_EXPIRED`, JSON for JSON clients) instead of redirecting. */
  throwError?: boolean;
}

/** What a loader wrapped by `withAuth` receives on top of its arguments. */
export interface AuthArgs {
  user: User | null;
  session: Session | null;
}

/** Options of {@link createAuthHelpers}. */
export interface AuthHelpersOptions {
  /**
   * Run the loaders and actions that `withAuth` wraps inside the request
   * scope (`AsyncLocalStorage`), so `getUser()`, `requireAuth()` and the
   * other global helpers of `@framework/auth` work in them. Default false:
   * no scope is ever entered (on Node 20 `AsyncLocalStorage` turns on
   * promise hooks for the whole process), and those helpers throw their
   * "outside a request scope" Error; the helpers returned here, and the
   * `user` / `session` that `withAuth` passes, work either way.
   */
  scope?: boolean;
}

/** The helpers {@link createAuthHelpers} returns, bound to one engine. */
export interface AuthHelpers {
  /** The session of `request`, read once per request (shared by every helper and `withAuth`). */
  getSession(request: Request): Promise<RequestSession>;
  /** The signed-in user, or null. */
  getUser(request: Request): Promise<User | null>;
  /**
   * The signed-in user. Signed out: throws a redirect (302 for GET, 303
   * otherwise) to the sign-in page with `callbackUrl`, or to `redirectTo`;
   * with `throwError` the kit's 401 Response. Cleared cookies ride along.
   */
  requireUser(request: Request, options?: RequireUserOptions): Promise<User>;
  /**
   * The signed-in user when they hold `role` (an array: any). Signed out: as
   * `requireUser`. Without the role: throws the kit's 403 Response
   * (`FORBIDDEN`; JSON for JSON clients, the error page otherwise). The
   * check is `checkRole` from `@framework/auth` (as everywhere in the kit):
   * roles come from `createAuth({rbac})` only; without it this throws an
   * Error (fails closed), never falling back to `user.role`.
   */
  requireRole(request: Request, role: string | readonly string[], options?: RequireUserOptions): Promise<User>;
  /**
   * Runs a loader or action with the request's session read (once, shared
   * with the helpers above): hands it `user` and `session`, and returns
   * refreshed or cleared session cookies through its result's headers. Kit
   * errors it throws (`ForbiddenError`, `requireAuth()`'s redirect, …) are
   * thrown on as the kit's Response. With `createAuthHelpers(auth, {scope:
   * true})` it runs inside the request scope, where `getUser()`,
   * `requireAuth()` and the other global helpers of `@framework/auth` work.
   */
  withAuth<A extends RouteArgs, R>(
    loader: (args: A & AuthArgs) => R | Promise<R>,
  ): (args: A) => Promise<WithCookies<Awaited<R>>>;
}

/**
 * Session helpers for loaders and actions, bound to `auth`. Create them once
 * in a server module and import them in routes. The session of a request is
 * read once (`auth.openScope`), whichever helpers ask for it.
 *
 * @param auth the engine from `createAuth`.
 * @param options {@link AuthHelpersOptions}: `scope` (default false) for the
 *   global helpers of `@framework/auth` inside `withAuth`.
 * @example
 * ```ts
 * // app/auth.server.ts
 * export const { getUser, requireUser, requireRole, withAuth } = createAuthHelpers(auth);
 *
 * // app/routes/dashboard.tsx
 * export const loader = withAuth(async ({ request }) => {
 *   const user = await requireUser(request);
 *   return { name: user.name };
 * });
 * // getUser() / requireAuth() of @framework/auth inside withAuth: createAuthHelpers(auth, { scope: true })
 * ```
 */
export function createAuthHelpers(auth: Auth, options: AuthHelpersOptions = {}): AuthHelpers {
  // The read of a request is kept on the request itself, under this instance's own symbol: a WeakMap entry per
  // request made the garbage collector's young-generation passes dearer by several µs a request under load.
  const READ: unique symbol = Symbol('@framework/remix.read');
  type WithRead = Request & { [READ]?: AuthScope | Promise<AuthScope> };
  /** A refusal thrown while reading the session (an API key over its budget: 429) becomes the kit's Response. */
  const refused = (request: Request) => (thrown: unknown) => {
    throw auth.toResponse(thrown, request) ?? thrown;
  };
  /** The session of `request`: read once, through `auth.openScope` (no AsyncLocalStorage); a value when ready now. */
  const read = (request: Request): AuthScope | Promise<AuthScope> => {
    let known = (request as WithRead)[READ];
    if (known === undefined) {
      const opened = auth.openScope(request);
      known = opened instanceof Promise ? opened.catch(refused(request)) : opened;
      (request as WithRead)[READ] = known;
    }
    return known;
  };
  /** `auth.run` for `withAuth` with `{scope: true}`, answering a refused read as {@link read} does. */
  const run = <T>(request: Request, fn: (scope: AuthScope) => T | Promise<T>): Promise<T> => {
    let entered = false;
    const inside = (scope: AuthScope) => {
      entered = true;
      return fn(scope);
    };
    return auth.run(request, inside).catch((thrown: unknown) => {
      throw (entered ? null : auth.toResponse(thrown, request)) ?? thrown;
    });
  };
  const refuse = (request: Request, error: unknown, headers: Headers): Response =>
    withCookies(auth.toResponse(error, request)!, headers);
  const signedOut = (request: Request, scope: AuthScope, options: RequireUserOptions): never => {
    if (options.throwError)
      throw refuse(request, scope.expired ? new SessionExpiredError() : new UnauthenticatedError(), scope.headers);
    const url = new URL(request.url);
    const location =
      options.redirectTo ?? `${auth.config.pages.signIn}?callbackUrl=${encodeURIComponent(url.pathname + url.search)}`;
    const status = request.method === 'GET' || request.method === 'HEAD' ? 302 : 303;
    throw withCookies(new Response(null, { status, headers: { location } }), scope.headers);
  };
  /** The loader of `withAuth`, its session read: cookies onto what it returns or throws. */
  const serve = async <A extends RouteArgs, R>(
    loader: (args: A & AuthArgs) => R | Promise<R>,
    args: A,
    scope: AuthScope,
  ): Promise<WithCookies<Awaited<R>>> => {
    try {
      return attachCookies(await loader({ ...args, user: scope.user, session: scope.session }), scope.headers);
    } catch (thrown) {
      if (thrown instanceof Response) throw withCookies(thrown, scope.headers);
      const answer = auth.toResponse(thrown, args.request);
      throw answer ? withCookies(answer, scope.headers) : thrown;
    }
  };

  const helpers: AuthHelpers = {
    getSession: async (request) => read(request),
    getUser: async (request) => {
      const scope = read(request);
      return (scope instanceof Promise ? await scope : scope).user;
    },
    // Not async: a session answered from memory costs one settled promise.
    requireUser(request, options = {}) {
      try {
        const known = read(request);
        if (known instanceof Promise) return known.then((scope) => scope.user ?? signedOut(request, scope, options));
        return Promise.resolve(known.user ?? signedOut(request, known, options));
      } catch (thrown) {
        return Promise.reject(thrown);
      }
    },
    async requireRole(request, role, options = {}) {
      const known = read(request);
      const scope = known instanceof Promise ? await known : known;
      const refusal = checkRole(scope.extensions.rbac, scope.user, role);
      if (!refusal) return scope.user!;
      if (refusal instanceof UnauthenticatedError) return signedOut(request, scope, options);
      throw refuse(request, refusal, scope.headers);
    },
    withAuth(loader) {
      if (options.scope === true)
        return (args) =>
          run(args.request, (scope) => {
            (args.request as WithRead)[READ] = scope;
            return serve(loader, args, scope);
          });
      return async (args) => {
        const known = read(args.request);
        return serve(loader, args, known instanceof Promise ? await known : known);
      };
    },
  };
  return helpers;
}
