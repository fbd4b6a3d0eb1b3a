/**
 * `authEndpoint(auth)`: the auth routes as an Astro endpoint.
 * @module
 */
import type { APIRoute } from 'astro';
import { authResolver, type AuthSource } from './source.js';

/** The handlers of {@link authEndpoint}, to export from the endpoint file. */
export interface AuthEndpoint {
  GET: APIRoute;
  POST: APIRoute;
  /** Every other method (answered by the kit: 405 with `Allow` where a route exists). */
  ALL: APIRoute;
}

/**
 * The handlers of an Astro endpoint answering every request with `auth.handler(request, {ip})`: the kit's
 * sign-up, sign-in, sign-out, session, CSRF and plugin routes under `auth.config.basePath` (`/auth`), with the
 * client address Astro reports (`clientAddress`, which follows the adapter's proxy settings). Put it at
 * `src/pages/auth/[...auth].ts` (the file's folder must match `basePath`); server output (or
 * `export const prerender = false` in a static site).
 *
 * @param auth the engine from `createAuth`, or a function resolving it once.
 * @returns `{GET, POST, ALL}`.
 * @example
 * ```ts
 * // src/pages/auth/[...auth].ts
 * import { authEndpoint } from '@framework/astro';
 * import { auth } from '../../auth';
 *
 * export const prerender = false;
 * export const { GET, POST, ALL } = authEndpoint(auth);
 * ```
 */
export function authEndpoint(auth: AuthSource): AuthEndpoint {
  const engine = authResolver(auth);
  const handle: APIRoute = async ({ request, clientAddress }) => {
    const kit = await engine();
    return kit.handler(request, clientAddress ? { ip: clientAddress } : {});
  };
  return { GET: handle, POST: handle, ALL: handle };
}
