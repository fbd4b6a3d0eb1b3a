/**
 * `authSession(auth, options)`: the session of every request, and the
 * request scope for `getUser()`, `requireAuth()` and the other helpers.
 * @module
 */
import type { RequestHandler } from 'express';
import type { Auth, AuthScope, RequestInfo, Session, User } from '@framework/auth';
import { lazyWebRequest } from './request.js';
import { keepScope } from './request-scope.js';

/** What {@link authSession} puts on `req.auth`. */
export interface ExpressAuthState {
  user: User | null;
  session: Session | null;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The session of the request, set by `authSession` from `@framework/express`. */
      auth?: ExpressAuthState;
    }
  }
}

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
 * come before or after it.
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
  return (req, res, next) => {
    // Built only if something reads it (a plugin's credential, scope.request): the cookie comes from Node's headers.
    const request = lazyWebRequest(req);
    const enter = (state: AuthScope) => {
      keepScope(req, state);
      req.auth = { user: state.user, session: state.session };
      res.locals.user = state.user;
      res.locals.session = state.session;
      for (const cookie of state.headers.getSetCookie()) res.append('Set-Cookie', cookie);
    };
    const ip = req.socket?.remoteAddress;
    const info: RequestInfo = ip ? { ip, cookie: req.headers.cookie ?? null } : { cookie: req.headers.cookie ?? null };
    if (options.scope !== true) {
      Promise.resolve(auth.openScope(request, info)).then((state) => {
        enter(state);
        next();
      }, next);
      return;
    }
    auth
      .run(
        request,
        (scope) => {
          enter(scope);
          next();
        },
        info,
      )
      .catch(next);
  };
}
