/**
 * `authSession(auth)` and `getSession(event)`: the session of every request, read once and on first use.
 * @module
 */
import {
  appendResponseHeader,
  defineEventHandler,
  getRequestIP,
  type EventHandler,
  type EventHandlerRequest,
  type H3Event,
} from 'h3';
import { createHeaders } from '@remix-run/node-fetch-server';
import { bodylessRequest, type Auth, type AuthScope, type RequestInfo, type Session, type User } from '@framework/auth';
import { headersOnlyRequest, pathnameOfHref, requestUrl, type ProxyOptions } from './request.js';
import { answer } from './respond.js';
import { authResolver, type AuthSource } from './source.js';

/** Options of {@link authSession}. */
export type AuthSessionOptions = ProxyOptions;

interface EventAuthState {
  auth: Auth;
  /** The request's Web `Request`, built on first use (the session read by cookie never needs it). */
  request: () => Request;
  info: RequestInfo;
  scope?: Promise<AuthScope>;
}

/**
 * Where the state lives on `event.context`: a registered symbol, so that every copy of this module (Nuxt bundles
 * server routes with Nitro and pages with Vite, each with its own copy) finds what `authSession` put there.
 */
const STATE = Symbol.for('@framework/nuxt.auth-state');

function stateSlot(event: H3Event): { [STATE]?: EventAuthState } {
  return event.context as { [STATE]?: EventAuthState };
}

function underBase(pathname: string, base: string): boolean {
  return pathname === base || pathname.startsWith(`${base}/`);
}

/**
 * An h3 event handler for Nitro's `server/middleware/` (or `app.use(...)` in a plain h3 app, before the routes)
 * that prepares the session of every request outside the auth routes: it checks the request's URL and method (a
 * malformed `Host`, a target that is not a path or a method a Web `Request` cannot carry gets 400 `INVALID_REQUEST`
 * here, before any page renders; the Web `Request` itself is built only if something reads it) and leaves the session to be read on the first {@link getSession} or guard of the request, so routes
 * that never ask pay nothing. Refreshed or cleared session cookies are appended to the response when the session
 * is read.
 *
 * @param auth the engine from `createAuth`, or a function resolving it once.
 * @param options {@link AuthSessionOptions}: `trustProxy` (default false).
 * @returns a middleware that answers only malformed requests (a Web `Response`), and nothing otherwise.
 * @example
 * ```ts
 * // server/middleware/auth.ts
 * import { authSession } from '@framework/nuxt';
 * import { auth } from '../utils/auth';
 *
 * export default authSession(auth);
 * ```
 */
export function authSession(
  auth: AuthSource,
  options: AuthSessionOptions = {},
): EventHandler<EventHandlerRequest, Promise<Response | undefined>> {
  const engine = authResolver(auth);
  // The engine once resolved: later requests do not wait a tick for it.
  let resolved: Auth | undefined = typeof auth === 'function' ? undefined : auth;
  const ipOptions = { xForwardedFor: options.trustProxy === true };
  return defineEventHandler(async (event) => {
    const kit = resolved ?? (resolved = await engine());
    let request: () => Request;
    let url: string;
    try {
      url = requestUrl(event, options);
      const req = event.node.req;
      request = bodylessRequest(url, req.method ?? 'GET', () => createHeaders(req));
    } catch (error) {
      const refused = kit.toResponse(error, headersOnlyRequest(event));
      if (refused) return refused;
      throw error;
    }
    if (underBase(pathnameOfHref(url), kit.config.basePath)) return undefined;
    const ip = getRequestIP(event, ipOptions);
    const cookie = event.node.req.headers.cookie ?? null;
    const info: RequestInfo = ip ? { ip, cookie } : { cookie };
    stateSlot(event)[STATE] = { auth: kit, request, info };
    return undefined;
  });
}

/**
 * The session read of the request, its Set-Cookie lines queued on the response. A read that is ready now (a JWT
 * cookie) costs one settled promise and no tick more.
 */
function openScope(event: H3Event, state: EventAuthState): Promise<AuthScope> {
  const opened = state.auth.openScope(state.request, state.info);
  if (opened instanceof Promise)
    return opened.then(
      (scope) => queueCookies(event, scope),
      (error: unknown) => refusedRead(event, state, error),
    );
  return Promise.resolve(queueCookies(event, opened));
}

function queueCookies(event: H3Event, scope: AuthScope): AuthScope {
  for (const line of scope.headers.getSetCookie()) appendResponseHeader(event, 'set-cookie', line);
  return scope;
}

/** A refused read (an API key over its budget: RATE_LIMITED) is answered as the kit answers it. */
function refusedRead(event: H3Event, state: EventAuthState, error: unknown): Promise<never> {
  const refused = state.auth.toResponse(error, state.request());
  if (refused) return answer(event, refused);
  throw error;
}

function stateOf(event: H3Event, caller: string): EventAuthState {
  const state = stateSlot(event)[STATE];
  if (!state)
    throw new Error(
      `${caller}(event) needs authSession(auth): add server/middleware/auth.ts with \`export default authSession(auth)\`.`,
    );
  return state;
}

/**
 * @internal The engine and the request's scope (read on first use).
 * @throws Error when `authSession` did not run for the event.
 */
export async function scopeOf(event: H3Event, caller: string): Promise<{ auth: Auth; scope: AuthScope }> {
  const state = stateOf(event, caller);
  return { auth: state.auth, scope: await scopePromise(event, state) };
}

/**
 * @internal The engine and the pending scope of the request (read on first use), without another promise around
 * them: what the guards await.
 * @throws Error when `authSession` did not run for the event.
 */
export function requestScope(event: H3Event, caller: string): { auth: Auth; scope: Promise<AuthScope> } {
  const state = stateOf(event, caller);
  return { auth: state.auth, scope: scopePromise(event, state) };
}

function scopePromise(event: H3Event, state: EventAuthState): Promise<AuthScope> {
  return (state.scope ??= openScope(event, state));
}

/**
 * The session of the request: `{user, session}`, both null when nobody is signed in. Read once per request (on
 * the first call, from the cookie or an API key), shared by every later call and guard; a refreshed or cleared
 * session cookie is appended to the response.
 *
 * @param event the h3 event of a server route, server middleware after `authSession`, or (in Nuxt pages)
 *   `useRequestEvent()` during server rendering.
 * @throws Error when `authSession` did not run for the event. When the kit refuses the read (an API key over its
 *   budget), it sends the kit's answer (429 `RATE_LIMITED`) and throws an h3 error to stop the route.
 * @example
 * ```ts
 * // server/api/whoami.get.ts
 * import { defineEventHandler } from 'h3';
 * import { getSession } from '@framework/nuxt';
 *
 * export default defineEventHandler(async (event) => {
 *   const { user } = await getSession(event);
 *   return { email: user?.email ?? null };
 * });
 * ```
 */
export async function getSession(event: H3Event): Promise<{ user: User | null; session: Session | null }> {
  const { scope } = await scopeOf(event, 'getSession');
  return { user: scope.user, session: scope.session };
}
