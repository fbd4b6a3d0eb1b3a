/**
 * `authSession(auth, options)`: the session of every request, and the
 * request scope for `getUser()`, `requireAuth()` and the other helpers.
 * @module
 */
import type { Request, RequestHandler, Response } from 'express';
import type { Auth, AuthScope, RequestInfo } from '@framework/auth';
import { lazyWebRequest } from './request.js';
import { keepScope } from './request-scope.js';

export type { ExpressAuthState } from './request-scope.js';

/** Options of {@link authSession}. */
export interface AuthSessionOptions {
  /**
   * Run the rest of the chain inside `auth.run` (`AsyncLocalStorage`), so the global helpers of
   * `@framework/auth` (`getUser()`, `requireAuth()`, `requireRole()`, ...) work. Default false: only `req.auth`
   * and `res.locals` are set, and no request pays for `AsyncLocalStorage` unless the app asks for the helpers.
   * `authorize()` works in both modes.
   */
  scope?: boolean;
}

/**
 * Reads the session of every request and hands on to the rest of the chain:
 * sets `req.auth = {user, session}` and `res.locals.user` /
 * `res.locals.session` (for templates), appends refreshed or cleared session
 * cookies to the response, and (with `scope: true`) runs the rest of the chain
 * inside the request scope. The request body is not touched, so body parsers may
 * come before or after it. `req.auth` also carries the scope `authorize()`
 * reads: replace it and `authorize()` answers as if `authSession` had not run.
 *
 * Errors thrown by `requireAuth()` and friends travel Express's error path:
 * add {@link authErrorHandler} after your routes to answer them as the kit
 * does (redirect, or JSON / error page with the status). A failure to read
 * the session goes to `next(err)`.
 *
 * @param auth the engine from `createAuth`.
 * @param options {@link AuthSessionOptions}: `scope` (default false).
 * @example
 * ```ts
 * app.use(authRouter(auth));
 * app.use(authSession(auth, { scope: true })); // scope: for requireAuth() below
 * app.get('/me', (req, res) => res.json(req.auth?.user ?? null));
 * app.get('/dashboard', (req, res) => res.send(`Hi ${requireAuth().name}`));
 * app.use(authErrorHandler(auth));
 * ```
 */
export function authSession(auth: Auth, options: AuthSessionOptions = {}): RequestHandler {
  if (options.scope === true) {
    return (req, res, next) => {
      auth
        .run(
          lazyWebRequest(req),
          (scope) => {
            enter(req, res, scope);
            next();
          },
          infoOf(req),
        )
        .catch(next);
    };
  }
  return (req, res, next) => {
    // Built only if something reads it (a plugin's credential, scope.request): the cookie comes from Node's headers.
    const opened = auth.openScope(lazyWebRequest(req), infoOf(req));
    if (opened instanceof Promise) {
      opened.then((scope) => {
        enter(req, res, scope);
        next();
      }, next);
      return;
    }
    // Answered from memory (a JWT seen before): the rest of the chain runs in this tick.
    enter(req, res, opened);
    next();
  };
}

/** What the session read needs of `req` besides the `Request`: the client's address and the raw `Cookie` header. */
function infoOf(req: Request): RequestInfo {
  const cookie = req.headers.cookie ?? null;
  const ip = req.socket?.remoteAddress;
  return ip ? { ip, cookie } : { cookie };
}

/** Hands the scope to the rest of the chain: `req.auth`, `res.locals`, and the session cookies to send. */
function enter(req: Request, res: Response, scope: AuthScope): void {
  keepScope(req, scope);
  res.locals.user = scope.user;
  res.locals.session = scope.session;
  const cookies = scope.headers.getSetCookie();
  for (let i = 0; i < cookies.length; i++) res.append('Set-Cookie', cookies[i]);
}
