/**
 * `authPlugin`: mounts `@framework/auth` in a Fastify app.
 * @module
 */
import type { FastifyInstance, FastifyPluginCallback } from 'fastify';
import type { Auth } from '@framework/auth';
import { leaveBodiesUnread } from './body.js';
import { authErrorHandler, type AuthErrorHandlerOptions } from './errors.js';
import { toWebRequest } from './request.js';
import { releaseBodyAfter, sendWebResponse } from './response.js';
import { clientInfo, sessionHook } from './session.js';
import { OWN_ROUTE } from './state.js';

/** Options of {@link authPlugin}. */
export interface AuthPluginOptions {
  /** The engine from `createAuth`. Its `config.basePath` (`/auth` by default) is where the routes go. */
  auth: Auth;
  /**
   * Run the rest of each request (later hooks, body parsing, the handler) inside the request scope
   * (`AsyncLocalStorage`), so `getUser()`, `requireAuth()`,
   * `requireRole()` and the other global helpers of `@framework/auth` work in them. Default false: only
   * `request.auth` is set, and no request pays for `AsyncLocalStorage` unless the app asks for the helpers; the
   * guards of this package (`requireAuth()`, `authorize()` as `preHandler`s) work either way.
   */
  scope?: boolean;
  /**
   * Install {@link authErrorHandler} as the app's error handler. Default true. With false, call it from your own
   * `setErrorHandler` for the errors the helpers throw.
   */
  errorHandler?: boolean;
  /** Passed to {@link authErrorHandler}: where 5xx errors are logged. Default `request.log.error`. */
  log?: AuthErrorHandlerOptions['log'];
}

/** The auth routes in an encapsulated context of their own, whose bodies Fastify leaves unread. */
function authRoutes(auth: Auth) {
  return async function frameworkAuthRoutes(instance: FastifyInstance) {
    leaveBodiesUnread(instance);
    const base = auth.config.basePath;
    for (const url of [base, `${base}/*`]) {
      instance.all(url, { config: { [OWN_ROUTE]: true } }, async (request, reply) => {
        const web = toWebRequest(request, reply);
        const response = await auth.handler(web, clientInfo(request));
        releaseBodyAfter(reply, request.raw, web);
        return sendWebResponse(reply, response);
      });
    }
  };
}

const plugin: FastifyPluginCallback<AuthPluginOptions> = (fastify, options, done) => {
  const { auth } = options;
  if (!auth || typeof auth.handler !== 'function')
    return done(new TypeError('authPlugin needs { auth }: the engine from createAuth()'));
  fastify.decorateRequest('auth', null);
  fastify.addHook('onRequest', sessionHook(auth, options.scope === true));
  if (options.errorHandler !== false)
    fastify.setErrorHandler(authErrorHandler(auth, options.log ? { log: options.log } : {}));
  fastify.register(authRoutes(auth));
  done();
};

/**
 * Mounts `@framework/auth` in a Fastify 5 app:
 * - every route under `auth.config.basePath` (`/auth`), for every method (wrong methods get the kit's 405), with
 *   the body left unread by Fastify and streamed into the Web `Request`, so the kit's own limit applies (413 past
 *   64 KiB, chunked or not) and the connection stays usable after it;
 * - an `onRequest` hook reading the session of every other request from its headers: `request.auth = {user,
 *   session, scope}`, refreshed or cleared session cookies on the reply, and (with `scope: true`) the
 *   rest of the request (later hooks, body parsing, the handler) runs in the request scope, so the global helpers
 *   work;
 * - {@link authErrorHandler} as the error handler (unless `errorHandler: false`): the helpers' redirects, 401,
 *   403 and other kit errors as the kit answers them; other errors without message or stack.
 *
 * The client IP given to the kit (rate limits, API-key budgets) is `request.ip`, which follows Fastify's
 * `trustProxy`. The request URL is `request.protocol` + `request.host` + the target; a malformed `Host` or a
 * target that is not a path gets 400 `INVALID_REQUEST`. Not encapsulated (like a `fastify-plugin` plugin):
 * register it first, on the app, so its hook and decoration reach every route.
 *
 * @throws TypeError (through `register`) when `auth` is missing.
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { requireAuth as currentUser } from '@framework/auth';
 * import { authPlugin, authorize, requireAuth, securityHeaders } from '@framework/fastify';
 *
 * const app = Fastify();
 * app.addHook('onRequest', securityHeaders());
 * await app.register(authPlugin, { auth, scope: true }); // scope: for currentUser() below
 * app.get('/me', (request) => request.auth?.user ?? null);
 * app.get('/dashboard', { preHandler: requireAuth() }, () => `Hi ${currentUser().name}`);
 * app.get('/admin', { preHandler: authorize({ role: 'admin' }) }, () => 'admin');
 * ```
 */
export const authPlugin: FastifyPluginCallback<AuthPluginOptions> = Object.assign(plugin, {
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: '@framework/fastify',
});
