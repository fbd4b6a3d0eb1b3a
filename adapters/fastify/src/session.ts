/**
 * The session hook of `authPlugin`: `request.auth`, refreshed cookies, and (by default) the request scope for the
 * global helpers of `@framework/auth` in route handlers.
 * @internal
 * @module
 */
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Auth, AuthScope, RequestInfo } from '@framework/auth';
import { isOwnRoute } from './state.js';
import { lazyWebRequest } from './request.js';

/** The client's address as Fastify reports it: `request.ip`, which follows Fastify's `trustProxy`. */
export function clientInfo(request: FastifyRequest): RequestInfo {
  return request.ip ? { ip: request.ip } : {};
}

/** {@link clientInfo} and the raw `Cookie` header, for the session read (no `Headers` built for it). */
function sessionInfo(request: FastifyRequest): RequestInfo {
  const cookie = request.raw.headers.cookie ?? null;
  return request.ip ? { ip: request.ip, cookie } : { cookie };
}

function enter(request: FastifyRequest, reply: FastifyReply, scope: AuthScope): void {
  request.auth = { user: scope.user, session: scope.session, scope };
  for (const cookie of scope.headers.getSetCookie()) reply.header('set-cookie', cookie);
}

/**
 * The `onRequest` hook: reads the session from the request's headers (never its body), sets `request.auth` and
 * queues refreshed or cleared session cookies on the reply. With `scope`, the session is read through `auth.run`
 * and the rest of Fastify's chain is started (`done()`) inside it, so the later hooks and the handler run in the
 * request scope (`AsyncLocalStorage`); Fastify runs its body parsers in the async context of the request
 * (`AsyncResource`), so a parsed body does not lose it. The adapter's own routes are skipped: the kit reads
 * sessions there itself.
 */
export function sessionHook(auth: Auth, scope: boolean): onRequestHookHandler {
  return function readSession(request, reply, done) {
    if (isOwnRoute(request.routeOptions.config)) return done();
    // Built only if something reads it (a plugin's credential, scope.request): the cookie comes from Node's headers.
    let web: () => Request;
    try {
      web = lazyWebRequest(request);
    } catch (error) {
      return done(error as Error);
    }
    const info = sessionInfo(request);
    if (!scope) {
      const opened = auth.openScope(web, info);
      if (opened instanceof Promise) {
        opened.then((state) => {
          enter(request, reply, state);
          done();
        }, done);
        return;
      }
      // Ready now (a JWT cookie): no promise, no tick before the next hook.
      enter(request, reply, opened);
      return done();
    }
    let entered = false;
    const ran = auth.run(
      web,
      (state) => {
        enter(request, reply, state);
        entered = true;
        // What the rest of the chain throws is Fastify's to answer, not a failed session read.
        try {
          done();
        } catch {
          // Fastify answers errors of its hooks and handlers itself; nothing reaches here in practice.
        }
      },
      info,
    );
    // Entered in this tick: `ran` is settled and fulfilled (nothing after `entered = true` throws), so no handler
    // (and no promise more, each one costing a promise hook under AsyncLocalStorage on Node 20) is attached.
    if (!entered)
      ran.catch((error: Error) => {
        if (!entered) done(error);
      });
  };
}
