/**
 * `authRouter(auth)`: the auth routes as Express middleware.
 * @module
 */
import type { RequestHandler } from 'express';
import type { Auth } from '@framework/auth';
import { requestPath, toWebRequest } from './request.js';
import { releaseBody, sendWebResponse } from './response.js';

/**
 * Serves every auth route under `auth.config.basePath` (`/auth` by default),
 * for every method, so wrong methods get the kit's 405; other paths go on to
 * the next handler. The request is converted to a Web `Request` (streaming,
 * or re-serialised when a body parser has run) and the `Response` is
 * streamed back with every Set-Cookie. Paths are matched on `originalUrl`,
 * so mount it with `app.use(authRouter(auth))`, not under a prefix.
 *
 * @param auth the engine from `createAuth`.
 * @returns Express middleware; unexpected failures go to `next(err)`.
 * @example
 * ```ts
 * const app = express();
 * app.use(authRouter(auth));         // GET /auth/session, POST /auth/callback/credentials, …
 * ```
 */
export function authRouter(auth: Auth): RequestHandler {
  const base = auth.config.basePath;
  return (req, res, next) => {
    const path = requestPath(req);
    if (path !== base && !path.startsWith(`${base}/`)) return next();
    const request = toWebRequest(req, res);
    const ip = req.socket.remoteAddress;
    auth
      .handler(request, ip ? { ip } : {})
      .then((response) => sendWebResponse(res, response))
      .then(() => releaseBody(req, request), next);
  };
}
