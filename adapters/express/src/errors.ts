/**
 * `authErrorHandler(auth)`: answers the kit's errors in Express's error path.
 * @module
 */
import type { ErrorRequestHandler } from 'express';
import type { Auth } from '@framework/auth';
import { headersOnlyRequest } from './request.js';
import { sendWebResponse } from './response.js';

/**
 * An Express error handler that answers what `requireAuth()` and the other
 * helpers throw, as the kit answers it (`auth.toResponse`): `AuthRedirect` →
 * its redirect (302/303); `UnauthenticatedError`, `ForbiddenError` and other
 * `AuthError`s → `{error: {code, message}}` JSON or the error page, with
 * their status. Anything else, or an error after the response started, goes
 * on to the next error handler. It reads only the request's headers (to
 * choose JSON or HTML), never converts the request again, so it also answers
 * the 400 of a request whose URL could not be built.
 *
 * Register it after your routes. With Express 4, errors of async handlers
 * must reach it through `next(err)`; Express 5 forwards rejected promises.
 *
 * @param auth the engine from `createAuth`.
 * @example
 * ```ts
 * app.get('/admin', (req, res) => { if (req.auth?.user?.role !== 'admin') throw new ForbiddenError(); res.send('ok'); });
 * app.use(authErrorHandler(auth));
 * ```
 */
export function authErrorHandler(auth: Auth): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    const response = auth.toResponse(error, headersOnlyRequest(req));
    if (!response) return next(error);
    sendWebResponse(res, response).catch(next);
  };
}
