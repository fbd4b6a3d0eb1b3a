/**
 * `authHandle(auth)`: the auth routes and the session of every request, as a
 * SvelteKit `handle` hook.
 * @module
 */
import type { Handle, RequestEvent } from '@sveltejs/kit';
import { withSetCookies, type Auth, type RequestInfo } from '@framework/auth';
import type { AuthLocals } from './locals.js';
import { releaseBody } from './body.js';
import { attachState, refuseAuthError, type EventAuthState, type SessionRead } from './state.js';

/** The engine, or a function resolving it (for apps that migrate a database before creating it). */
export type AuthSource = Auth | (() => Auth | Promise<Auth>);

/** Options of {@link authHandle}. */
export interface AuthHandleOptions {
  /**
   * Open the request scope (`AsyncLocalStorage`) around `resolve(event)`, so
   * `getUser()`, `requireAuth()` and the other helpers of `@framework/auth`
   * work in load functions, actions and endpoints. Default true: the session
   * is read before `resolve`. With false the session is read on the first
   * `await event.locals.auth()` (or guard), and nothing else pays for it.
   */
  scope?: boolean;
  /**
   * Required: pass `building` from `$app/environment`. While true the hook
   * hands every request straight to `resolve` (prerendering has no cookies
   * or database). It is required because guessing from the request (the
   * prerender origin `http://sveltekit-prerender`) would let a request with
   * that `Host` switch the hook off at run time.
   */
  building: boolean;
}

/** @internal The engine behind an {@link AuthSource}, resolved once. */
export function authResolver(source: AuthSource): () => Promise<Auth> {
  if (typeof source !== 'function') return () => Promise.resolve(source);
  let pending: Promise<Auth> | undefined;
  return () => (pending ??= Promise.resolve(source()));
}

/** @internal The client's address when the adapter knows it (`getClientAddress` throws where it does not). */
export function clientInfo(event: Pick<RequestEvent, 'getClientAddress'>): RequestInfo {
  try {
    const ip = event.getClientAddress();
    return ip ? { ip } : {};
  } catch {
    return {};
  }
}

function underBase(pathname: string, base: string): boolean {
  return pathname === base || pathname.startsWith(`${base}/`);
}

function setLocals(locals: AuthLocals, read: () => Promise<SessionRead>, known: SessionRead | undefined): void {
  if (known) {
    locals.user = known.user;
    locals.session = known.session;
    locals.auth = () => Promise.resolve({ user: known.user, session: known.session });
    return;
  }
  const early = (name: string) => () => {
    throw new Error(
      `event.locals.${name} is read before \`await event.locals.auth()\`: authHandle(auth, {scope: false}) reads the session lazily.`,
    );
  };
  Object.defineProperty(locals, 'user', { get: early('user'), configurable: true, enumerable: true });
  Object.defineProperty(locals, 'session', { get: early('session'), configurable: true, enumerable: true });
  locals.auth = async () => {
    const { user, session } = await read();
    Object.defineProperty(locals, 'user', { value: user, writable: true, configurable: true, enumerable: true });
    Object.defineProperty(locals, 'session', { value: session, writable: true, configurable: true, enumerable: true });
    return { user, session };
  };
}

/** The response after the route: a guard's kit error answered as the kit does for JSON clients, then every cookie. */
async function finish(
  event: RequestEvent,
  state: EventAuthState,
  response: Response,
  session: Headers | undefined,
): Promise<Response> {
  let out = response;
  const thrown = state.thrown;
  if (thrown && !event.isDataRequest && response.status === thrown.status) {
    const kit = state.auth.toResponse(thrown, event.request);
    if (kit?.headers.get('content-type')?.includes('application/json')) out = kit;
  }
  const lines = [...(session?.getSetCookie() ?? []), ...state.cookies.getSetCookie()];
  return withSetCookies(out, lines);
}

/**
 * A SvelteKit `handle` hook for `@framework/auth`:
 * - requests under `auth.config.basePath` (`/auth`) are answered by
 *   `auth.handler(event.request, {ip})`, for every method;
 * - every other request gets `event.locals.auth()`, `event.locals.user` and
 *   `event.locals.session` ({@link AuthLocals}), and (by default) runs
 *   `resolve(event)` inside the request scope, so `getUser()` works in load
 *   functions and actions;
 * - refreshed or cleared session cookies, and those queued with
 *   `forwardCookies`, are appended to the response;
 * - when `requireUser` / `requireRole` refused a JSON client, the answer is
 *   the kit's `{error: {code, message}}` with the status;
 * - while building (prerendering) it does nothing.
 *
 * Compose it with `sequence()` from `@sveltejs/kit`.
 *
 * @param auth the engine from `createAuth`, or a function resolving it once.
 * @param options {@link AuthHandleOptions}: `building` (required), `scope`.
 * @throws TypeError at set-up when `options.building` is not a boolean.
 * @example
 * ```ts
 * // src/hooks.server.ts
 * import { building } from '$app/environment';
 * import { authHandle } from '@framework/sveltekit';
 * import { auth } from '$lib/server/auth';
 *
 * export const handle = authHandle(auth, { building });
 * ```
 */
export function authHandle(auth: AuthSource, options: AuthHandleOptions): Handle {
  if (typeof options?.building !== 'boolean')
    throw new TypeError('authHandle(auth, { building }): pass `building` from $app/environment');
  const engine = authResolver(auth);
  return async ({ event, resolve }) => {
    if (options.building === true) return resolve(event);
    const kit = await engine();
    if (underBase(event.url.pathname, kit.config.basePath)) {
      const response = await kit.handler(event.request, clientInfo(event));
      releaseBody(event.request);
      return response;
    }
    const locals = event.locals as AuthLocals;
    if (options.scope === false) {
      let pending: Promise<SessionRead> | undefined;
      // A refused read (an API key over its budget) becomes the kit's error, as a guard's would: never a 500.
      // openScope, not run: no AsyncLocalStorage scope is entered, so Node 20's promise hooks stay off.
      const read = () =>
        (pending ??= new Promise<SessionRead>((resolve) =>
          resolve(kit.openScope(event.request, clientInfo(event))),
        ).catch((thrown: unknown) => refuseAuthError(state, thrown)));
      const state: EventAuthState = { auth: kit, read, cookies: new Headers() };
      attachState(event, state);
      setLocals(locals, read, undefined);
      const response = await resolve(event);
      const headers = pending
        ? await pending.then(
            (scope) => scope.headers,
            () => undefined,
          )
        : undefined;
      return finish(event, state, response, headers);
    }
    let entered = false;
    try {
      return await kit.run(
        event.request,
        async (scope) => {
          entered = true;
          const state: EventAuthState = { auth: kit, read: () => Promise.resolve(scope), cookies: new Headers() };
          attachState(event, state);
          setLocals(locals, state.read, scope);
          return finish(event, state, await resolve(event), scope.headers);
        },
        clientInfo(event),
      );
    } catch (thrown) {
      // Reading the session refused the request (an API key over its budget: RATE_LIMITED): answer as the kit does.
      const answer = entered ? null : kit.toResponse(thrown, event.request);
      if (answer) return answer;
      throw thrown;
    }
  };
}
