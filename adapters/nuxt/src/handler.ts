/**
 * `authHandler(auth)`: the auth routes as an h3 event handler.
 * @module
 */
import { defineEventHandler, type EventHandler, type EventHandlerRequest } from 'h3';
import { clientInfo, headersOnlyRequest, toWebRequest, type ProxyOptions } from './request.js';
import { authResolver, type AuthSource } from './source.js';

/** Options of {@link authHandler}. */
export type AuthHandlerOptions = ProxyOptions;

/**
 * An h3 event handler answering every request it gets with `auth.handler(request, {ip})`, for every method (wrong
 * methods get the kit's 405 with `Allow`). Mount it on the auth routes: in Nuxt or Nitro as the catch-all file
 * `server/routes/auth/[...].ts` (the kit's default `basePath` `/auth`), in a plain h3 app with
 * `app.use('/auth', ...)` or a router's `/auth/**`.
 *
 * The body streams from the Node request into the Web `Request`, so the kit's limit (`readFormBody`: 413 past
 * 64 KiB, chunked or not) is what bounds it; a body the kit never read (a 405, a 413) is left to Node, which drains
 * it after the answer, so kept-alive connections stay usable. A malformed `Host` or a target that is not a path gets 400 `INVALID_REQUEST`.
 *
 * @param auth the engine from `createAuth`, or a function resolving it once.
 * @param options {@link AuthHandlerOptions}: `trustProxy` (default false).
 * @returns an event handler resolving to the kit's Web `Response` (h3 sends it, every Set-Cookie kept).
 * @example
 * ```ts
 * // server/routes/auth/[...].ts
 * import { authHandler } from '@framework/nuxt';
 * import { auth } from '../../utils/auth';
 *
 * export default authHandler(auth);
 * ```
 */
export function authHandler(
  auth: AuthSource,
  options: AuthHandlerOptions = {},
): EventHandler<EventHandlerRequest, Promise<Response>> {
  const engine = authResolver(auth);
  return defineEventHandler(async (event) => {
    const kit = await engine();
    let request: Request;
    try {
      request = toWebRequest(event, options);
    } catch (error) {
      const refused = kit.toResponse(error, headersOnlyRequest(event));
      if (refused) return refused;
      throw error;
    }
    return kit.handler(request, clientInfo(event, options));
  });
}
