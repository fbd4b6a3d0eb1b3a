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
   * Runs a loader or action inside the request scope (`getUser()`,
   * `requireAuth()` from `@framework/auth` work in it), hands it `user` and
   * `session`, and returns refreshed or cleared session cookies through its
   * result's headers. Kit errors it throws (`requireAuth()`'s redirect,
   * `ForbiddenError`, …) are thrown on as the kit's Response.
   */
  withAuth<A extends RouteArgs, R>(
    loader: (args: A & AuthArgs) => R | Promise<R>,
  ): (args: A) => Promise<WithCookies<Awaited<R>>>;
}

/**
 * Session helpers for loaders and actions, bound to `auth`. Create them once
 * in a server module and import them in routes.
 *
 * @param auth the engine from `createAuth`.
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
 * ```
 */
export function createAuthHelpers(auth: Auth): AuthHelpers {
  const reads = new WeakMap<Request, Promise<AuthScope>>();
  /**
   * `auth.run`, where a refusal thrown while reading the session (an API key over its budget: 429) becomes
   * the kit's Response, thrown as loaders do.
   */
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
  const read = (request: Request) => {
    let pending = reads.get(request);
    if (!pending) reads.set(request, (pending = run(request, (scope) => scope)));
    return pending;
  };
  const refuse = (request: Request, error: unknown, headers: Headers): Response =>
    withCookies(auth.toResponse(error, request)!, headers);

  const helpers: AuthHelpers = {
    getSession: read,
    getUser: async (request) => (await read(request)).user,
    async requireUser(request, options = {}) {
      const { user, expired, headers } = await read(request);
      if (user) return user;
      if (options.throwError)
        throw refuse(request, expired ? new SessionExpiredError() : new UnauthenticatedError(), headers);
      const url = new URL(request.url);
      const location =
        options.redirectTo ??
        `${auth.config.pages.signIn}?callbackUrl=${encodeURIComponent(url.pathname + url.search)}`;
      const status = request.method === 'GET' || request.method === 'HEAD' ? 302 : 303;
      throw withCookies(new Response(null, { status, headers: { location } }), headers);
    },
    async requireRole(request, role, options = {}) {
      const scope = await read(request);
      const refusal = checkRole(scope.extensions.rbac, scope.user, role);
      if (!refusal) return scope.user!;
      if (refusal instanceof UnauthenticatedError) return helpers.requireUser(request, options);
      throw refuse(request, refusal, scope.headers);
    },
    withAuth(loader) {
      return (args) =>
        run(args.request, async (scope) => {
          reads.set(args.request, Promise.resolve(scope));
          try {
            return attachCookies(await loader({ ...args, user: scope.user, session: scope.session }), scope.headers);
          } catch (thrown) {
            if (thrown instanceof Response) throw withCookies(thrown, scope.headers);
            const answer = auth.toResponse(thrown, args.request);
            throw answer ? withCookies(answer, scope.headers) : thrown;
          }
        });
    },
  };
  return helpers;
}
