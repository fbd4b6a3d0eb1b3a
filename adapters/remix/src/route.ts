/**
 * `createAuthRoute(auth)`: the auth routes as a splat resource route.
 * @module
 */
import type { Auth } from '@framework/auth';
import { requestInfo, type ClientIpOption, type RouteArgs } from './args.js';

/** Options of {@link createAuthRoute}. */
export interface AuthRouteOptions {
  /** Where the client's IP is (rate limits key on it). Default {@link contextIp}: `context.ip`. */
  clientIp?: ClientIpOption;
}

/** A resource route's `loader` and `action`. */
export interface ResourceRoute {
  loader(args: RouteArgs): Promise<Response>;
  action(args: RouteArgs): Promise<Response>;
}

/**
 * The `loader` (GET, HEAD) and `action` (every other method) of a splat
 * resource route at the auth `basePath` (`app/routes/auth.$.tsx` for
 * `/auth/*`): both hand the Web `Request` to `auth.handler` with the client
 * IP, and return its `Response` as is, so redirects, Set-Cookie, JSON
 * errors and the kit's 404 / 405 reach the client untouched.
 *
 * @param auth the engine from `createAuth`; its `basePath` must match the route's path.
 * @param options {@link AuthRouteOptions}.
 * @example
 * ```ts
 * // app/routes/auth.$.tsx
 * import { createAuthRoute } from '@framework/remix';
 * import { auth } from '~/auth.server';
 *
 * export const { loader, action } = createAuthRoute(auth);
 * ```
 */
export function createAuthRoute(auth: Auth, options: AuthRouteOptions = {}): ResourceRoute {
  const serve = (args: RouteArgs) => auth.handler(args.request, requestInfo(args, options.clientIp));
  return { loader: serve, action: serve };
}
