/**
 * `authRoute(auth)`: the kit's routes as a catch-all Route Handler.
 * @module
 */
import { engineOf, requestInfo, type AuthSource, type NextAuthOptions } from './engine.js';

/** A Route Handler: Next.js passes the Web `Request` (a `NextRequest`) and the route's params. */
export type RouteHandler = (request: Request, context?: unknown) => Promise<Response>;

/** The exports of a Route Handler module that serves every method. */
export interface AuthRouteHandlers {
  GET: RouteHandler;
  HEAD: RouteHandler;
  POST: RouteHandler;
  PUT: RouteHandler;
  PATCH: RouteHandler;
  DELETE: RouteHandler;
  OPTIONS: RouteHandler;
}

/**
 * The handlers of `app/auth/[...auth]/route.ts` (the folder is the engine's `basePath`, `/auth` by default):
 * every method goes to `auth.handler` with the client IP, and its `Response` is returned as is, so redirects,
 * Set-Cookie, JSON errors and the kit's 404 / 405 (`Allow`) reach the client untouched. All seven methods are
 * exported so that a wrong method gets the kit's 405 rather than Next.js's.
 *
 * @param auth the engine from `createAuth`, or a function resolving it (see {@link AuthSource}).
 * @param options {@link NextAuthOptions}: `clientIp`.
 * @example
 * ```ts
 * // app/auth/[...auth]/route.ts
 * import { authRoute } from '@framework/next';
 * import { auth } from '@/lib/auth';
 *
 * export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = authRoute(auth);
 * ```
 */
export function authRoute(auth: AuthSource, options: NextAuthOptions = {}): AuthRouteHandlers {
  const engine = engineOf(auth);
  const serve: RouteHandler = async (request) =>
    (await engine()).handler(request, requestInfo(request, options.clientIp));
  return { GET: serve, HEAD: serve, POST: serve, PUT: serve, PATCH: serve, DELETE: serve, OPTIONS: serve };
}
