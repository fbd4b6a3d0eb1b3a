/**
 * The session hook of `authPlugin`: `request.auth`, refreshed cookies, and (by default) the request scope for the
 * global helpers of `@framework/auth` in route handlers.
 * @internal
 * @module
 */
import { AsyncResource } from 'node:async_hooks';
import type { FastifyReply, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import type { Auth, AuthScope, RequestInfo } from '@framework/auth';
import { isOwnRoute } from './state.js';
import { toWebRequest } from './request.js';

/** Runs `fn` in the async context the session hook captured inside `auth.run`. */
type Enter = <T>(fn: () => T) => T;

/** Per request: the captured scope context (only with `scope: true`). */
const entries = new WeakMap<FastifyRequest, Enter>();

/** The client's address as Fastify reports it: `request.ip`, which follows Fastify's `trustProxy`. */
export function clientInfo(request: FastifyRequest): RequestInfo {
  return request.ip ? { ip: request.ip } : {};
}

function enter(request: FastifyRequest, reply: FastifyReply, scope: AuthScope): void {
  request.auth = { user: scope.user, session: scope.session, scope };
  for (const cookie of scope.headers.getSetCookie()) reply.header('set-cookie', cookie);
}

/**
 * The `onRequest` hook: reads the session from the request's headers (never its body), sets `request.auth` and
 * queues refreshed or cleared session cookies on the reply. With `scope`, the session is read through
 * `auth.run` and the async context inside it is kept for {@link scopeHandler}. The adapter's own routes are
 * skipped: the kit reads sessions there itself.
 */
export function sessionHook(auth: Auth, scope: boolean): onRequestHookHandler {
  return function readSession(request, reply, done) {
    if (isOwnRoute(request.routeOptions.config)) return done();
    let web: Request;
    try {
      web = toWebRequest(request, reply, { body: false });
    } catch (error) {
      return done(error as Error);
    }
    if (!scope) {
      Promise.resolve(auth.openScope(web, clientInfo(request))).then((state) => {
        enter(request, reply, state);
        done();
      }, done);
      return;
    }
    let entered = false;
    auth
      .run(
        web,
        (state) => {
          enter(request, reply, state);
          entries.set(
            request,
            AsyncResource.bind(<T>(fn: () => T): T => fn()),
          );
          entered = true;
          done();
        },
        clientInfo(request),
      )
      .catch((error: Error) => {
        if (!entered) done(error);
      });
  };
}

/**
 * An `onRoute` hook that runs every route handler registered after it inside the request scope the session hook
 * opened, so `getUser()`, `requireAuth()`, `requireRole()` and the other global helpers work in handlers,
 * whether the body was parsed first (Fastify's parsers read it in other async contexts) or not.
 */
export function scopeHandler(route: RouteOptions): void {
  if (isOwnRoute(route.config)) return;
  const handler = route.handler;
  route.handler = function scoped(this: unknown, request, reply) {
    const run = entries.get(request);
    return run ? run(() => handler.call(this as never, request, reply)) : handler.call(this as never, request, reply);
  };
}
