/**
 * `authHandle(auth)`: the auth routes and the session of every request, as a
 * SvelteKit `handle` hook.
 * @module
 */
import type { Handle, RequestEvent } from '@sveltejs/kit';
import { hasRequestScope, withSetCookies, type Auth, type RequestInfo } from '@framework/auth';
import type { AuthLocals } from './locals.js';
import { releaseBody } from './body.js';
import { attachState, refuseAuthError, type EventAuthState, type SessionRead } from './state.js';

/** The engine, or a function resolving it (for apps that migrate a database before creating it). */
export type AuthSource = Auth | (() => Auth | Promise<Auth>);

/** Options of {@link authHandle}. */
export interface AuthHandleOptions {
  /**
   * Also run `resolve(event)` inside the request scope (`AsyncLocalStorage`),
   * so `getUser()`, `requireAuth()` and the other global helpers of
   * `@framework/auth` work in load functions, actions and endpoints. Default
   * false: the session is still read before `resolve` (`event.locals.user`,
   * `requireUser(event)` and `requireRole(event, role)` work), but no scope
   * is entered, so the app does not pay for `AsyncLocalStorage` (on Node 20
   * it turns on promise hooks for the whole process) and the global helpers
   * throw their "outside a request scope" Error. A request served inside
   * another request's scope (SvelteKit's `event.fetch` from a load function
   * that runs in one) gets its own scope either way, so the helpers never
   * read the outer request.
   */
  scope?: boolean;
  /**
   * Read the session on the first `await event.locals.auth()` or guard
   * instead of before `resolve`, so routes that never ask do not pay for it.
   * `event.locals.user` and `.session` then throw an Error if read before
   * `await event.locals.auth()`. Default false. Not with `scope: true` (the
   * scope needs the session first): that is a TypeError at set-up.
   */
  lazy?: boolean;
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

/**
 * {@link clientInfo} for the session read: the client's address is asked of SvelteKit only when something reads
 * `ip` (a plugin's credential, such as an API key's failure count); a session read by cookie never does, and
 * `getClientAddress` costs about 1 µs a request on adapter-node. Read once.
 */
class SessionReadInfo implements RequestInfo {
  private readonly event: Pick<RequestEvent, 'getClientAddress'>;
  private known: RequestInfo | undefined;

  constructor(event: Pick<RequestEvent, 'getClientAddress'>) {
    this.event = event;
  }

  get ip(): string | undefined {
    return (this.known ??= clientInfo(this.event)).ip;
  }
}

/** Whether `pathname` is `base` or under it (no string built per request). */
function underBase(pathname: string, base: string): boolean {
  return (
    pathname.startsWith(base) && (pathname.length === base.length || pathname.charCodeAt(base.length) === 47) // '/'
  );
}

/** `event.locals` of a request whose session was read before `resolve`. */
function setLocals(locals: AuthLocals, known: SessionRead): void {
  const { user, session } = known;
  locals.user = user;
  locals.session = session;
  locals.auth = () => Promise.resolve({ user, session });
}

/** `event.locals` of a request whose session is read on the first `await event.locals.auth()` (`lazy: true`). */
function setLazyLocals(locals: AuthLocals, read: () => Promise<SessionRead>): void {
  const early = (name: string) => () => {
    throw new Error(
      `event.locals.${name} is read before \`await event.locals.auth()\`: authHandle(auth, {lazy: true}) reads the session lazily.`,
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

/** `read` of a state whose session is known before `resolve`. */
function readKnown(this: EventAuthState): Promise<SessionRead> {
  return Promise.resolve(this.known!);
}

/**
 * The response after the route: a guard's kit error answered as the kit does for JSON clients, then every cookie
 * (the response itself when there is none to add).
 */
function finish(
  event: RequestEvent,
  state: EventAuthState,
  response: Response,
  session: Headers | undefined,
): Response {
  let out = response;
  const thrown = state.thrown;
  if (thrown && !event.isDataRequest && response.status === thrown.status) {
    const kit = state.auth.toResponse(thrown, event.request);
    if (kit?.headers.get('content-type')?.includes('application/json')) out = kit;
  }
  const own = session?.getSetCookie();
  const queued = state.cookies;
  if (!queued) return own && own.length > 0 ? withSetCookies(out, own) : out;
  return withSetCookies(out, own && own.length > 0 ? [...own, ...queued] : queued);
}

/**
 * A SvelteKit `handle` hook for `@framework/auth`:
 * - requests under `auth.config.basePath` (`/auth`) are answered by
 *   `auth.handler(event.request, {ip})`, for every method;
 * - every other request gets `event.locals.auth()`, `event.locals.user` and
 *   `event.locals.session` ({@link AuthLocals}) and the guards
 *   (`requireUser(event)`, `requireRole(event, role)`); the session is read
 *   once, before `resolve(event)` (on first use with `lazy: true`);
 * - with `scope: true`, `resolve(event)` runs inside the request scope
 *   (`AsyncLocalStorage`), so `getUser()` and the other global helpers of
 *   `@framework/auth` work in load functions and actions; by default no
 *   scope is entered and they throw;
 * - refreshed or cleared session cookies, and those queued with
 *   `forwardCookies`, are appended to the response;
 * - when `requireUser` / `requireRole` refused a JSON client, the answer is
 *   the kit's `{error: {code, message}}` with the status;
 * - when reading the session refuses the request (an API key over its
 *   budget: `RATE_LIMITED`), the answer is the kit's response (429);
 * - while building (prerendering) it does nothing.
 *
 * Compose it with `sequence()` from `@sveltejs/kit`.
 *
 * @param auth the engine from `createAuth`, or a function resolving it once.
 * @param options {@link AuthHandleOptions}: `building` (required), `scope`, `lazy`.
 * @throws TypeError at set-up when `options.building` is not a boolean, or
 *   with both `scope: true` and `lazy: true`.
 * @example
 * ```ts
 * // src/hooks.server.ts
 * import { building } from '$app/environment';
 * import { authHandle } from '@framework/sveltekit';
 * import { auth } from '$lib/server/auth';
 *
 * export const handle = authHandle(auth, { building });
 * // getUser() / requireAuth() of @framework/auth in load functions: authHandle(auth, { building, scope: true })
 * ```
 */
export function authHandle(auth: AuthSource, options: AuthHandleOptions): Handle {
  if (typeof options?.building !== 'boolean')
    throw new TypeError('authHandle(auth, { building }): pass `building` from $app/environment');
  if (options.scope === true && options.lazy === true)
    throw new TypeError(
      'authHandle(auth, { scope: true, lazy: true }): the request scope needs the session before resolve; drop one',
    );
  const engine = authResolver(auth);
  // Known after the first request: no promise to wait on for the engine after that.
  let ready: Auth | undefined = typeof auth === 'function' ? undefined : auth;
  const handleAny: Handle = async ({ event, resolve }) => {
    if (options.building === true) return resolve(event);
    const kit = ready ?? (ready = await engine());
    if (underBase(event.url.pathname, kit.config.basePath)) {
      const response = await kit.handler(event.request, clientInfo(event));
      releaseBody(event.request);
      return response;
    }
    const locals = event.locals as AuthLocals;
    if (options.lazy === true) {
      let pending: Promise<SessionRead> | undefined;
      // A refused read (an API key over its budget) becomes the kit's error, as a guard's would: never a 500.
      const read = () =>
        (pending ??= new Promise<SessionRead>((resolve) =>
          resolve(kit.openScope(event.request, new SessionReadInfo(event))),
        ).catch((thrown: unknown) => refuseAuthError(state, thrown)));
      const state: EventAuthState = { auth: kit, read };
      attachState(event, state);
      setLazyLocals(locals, read);
      const response = await resolve(event);
      const headers = pending
        ? await pending.then(
            (scope) => scope.headers,
            () => undefined,
          )
        : undefined;
      return finish(event, state, response, headers);
    }
    // Inside another request's scope (SvelteKit's event.fetch from a load function running in one), the global
    // helpers would read that request: open this one's own, as { scope: true } does.
    if (options.scope !== true && !hasRequestScope()) return readThenResolve(kit, event, resolve);
    let entered = false;
    try {
      return await kit.run(
        event.request,
        async (scope) => {
          entered = true;
          const state: EventAuthState = { auth: kit, known: scope, read: readKnown };
          attachState(event, state);
          setLocals(locals, scope);
          return finish(event, state, await resolve(event), scope.headers);
        },
        new SessionReadInfo(event),
      );
    } catch (thrown) {
      // Reading the session refused the request (an API key over its budget: RATE_LIMITED): answer as the kit does.
      const answer = entered ? null : kit.toResponse(thrown, event.request);
      if (answer) return answer;
      throw thrown;
    }
  };
  if (options.building === true || options.lazy === true || options.scope === true) return handleAny;
  // The default, once the engine is known: not an async function, so a session answered from memory costs no
  // promise before `resolve` (SvelteKit's own AsyncLocalStorage makes every promise dearer on Node 20).
  return (input) => {
    const kit = ready;
    const { event, resolve } = input;
    if (kit === undefined || underBase(event.url.pathname, kit.config.basePath) || hasRequestScope())
      return handleAny(input);
    return readThenResolve(kit, event, resolve);
  };
}

/**
 * The default mode: reads the session (`openScope`, not `run`: no AsyncLocalStorage scope is entered), sets
 * locals, resolves, and adds the session cookies; a refused read (an API key over its budget: `RATE_LIMITED`) is
 * answered as the kit does.
 */
function readThenResolve(
  kit: Auth,
  event: RequestEvent,
  resolve: Parameters<Handle>[0]['resolve'],
): Response | Promise<Response> {
  let opened: SessionRead | Promise<SessionRead>;
  try {
    opened = kit.openScope(event.request, new SessionReadInfo(event));
  } catch (thrown) {
    return refusedRead(kit, event, thrown);
  }
  if (opened instanceof Promise)
    return opened.then(
      (scope) => enterThenResolve(kit, event, resolve, scope),
      (thrown: unknown) => refusedRead(kit, event, thrown),
    );
  return enterThenResolve(kit, event, resolve, opened);
}

function enterThenResolve(
  kit: Auth,
  event: RequestEvent,
  resolve: Parameters<Handle>[0]['resolve'],
  scope: SessionRead,
): Response | Promise<Response> {
  const state: EventAuthState = { auth: kit, known: scope, read: readKnown };
  attachState(event, state);
  setLocals(event.locals as AuthLocals, scope);
  const response = resolve(event);
  return response instanceof Promise
    ? response.then((resolved) => finish(event, state, resolved, scope.headers))
    : finish(event, state, response, scope.headers);
}

function refusedRead(kit: Auth, event: RequestEvent, thrown: unknown): Response {
  const answer = kit.toResponse(thrown, event.request);
  if (answer) return answer;
  throw thrown;
}
