/**
 * The session read pipeline: a request's session cookie (or, without one, a plugin's credential such as an API
 * key) into a {@link SessionState}, and that state into the request scope `auth.run` enters. The hot path (a
 * session that needs no I/O to confirm, no hooks) stays synchronous up to the one promise it returns.
 * @internal
 * @module
 */
import { readCookie, serializeCookie } from '../http/cookies.js';
import { requestOf } from '../http/adapter-kit.js';
import type { AuthInternals, Registry, RequestInfo, RequestSource, SessionState } from '../contract/types.js';
import type { SessionRead } from '../session/types.js';
import { admitCredential } from '../plugins/credential.js';
import { clearSessionCookie, sessionCookie } from '../routes/helpers.js';
import type { AuthScope } from '../scope.js';
import type { Session, User } from '../types.js';

/** `fresh`: confirm against storage now; `viaPlugins: false`: the session cookie only. */
export interface ReadOptions {
  fresh?: boolean;
  viaPlugins?: boolean;
  info?: RequestInfo;
}

/** The reader `createAuth` wires: `readSession` for routes and `getSession`, `openScope` for adapters. */
export interface SessionReader {
  readSession(request: Request, options?: ReadOptions): Promise<SessionState>;
  openScope(request: RequestSource, info?: RequestInfo): AuthScope | Promise<AuthScope>;
}

/**
 * The scope of a request given as a builder: `request` is a getter on the prototype that builds it on first read
 * (an accessor defined per object, as an object literal's `get` is, costs about 1 µs to create on Node 20).
 */
class ScopeOfBuiltRequest implements AuthScope {
  session: AuthScope['session'];
  user: AuthScope['user'];
  expired: boolean;
  headers: Headers;
  config: AuthScope['config'];
  extensions: Record<string, unknown>;
  grantedRoles?: readonly string[];
  readonly #request: () => Request;

  constructor(
    state: SessionState,
    request: () => Request,
    config: AuthScope['config'],
    extensions: Record<string, unknown>,
  ) {
    this.session = state.session;
    this.user = state.user;
    this.expired = state.expired;
    this.headers = state.headers;
    this.config = config;
    this.extensions = extensions;
    this.#request = request;
  }

  get request(): Request {
    return this.#request();
  }
}

/** `build` called at most once. */
function memoised(build: () => Request): () => Request {
  let built: Request | undefined;
  return () => (built ??= build());
}

const empty = (): SessionState => ({ session: null, user: null, expired: false, headers: new Headers() });

/** What the reader reads with. `extensions` is filled once the plugins are initialised, and copied into each scope. */
export interface SessionReaderDeps extends Pick<AuthInternals, 'config' | 'strategy' | 'callbacks' | 'clock'> {
  hooks: Registry['hooks'];
  extensions: Record<string, unknown>;
}

/** Builds the reader. */
export function createSessionReader(deps: SessionReaderDeps): SessionReader {
  const { config, strategy, callbacks, hooks, extensions } = deps;
  const cookieName = config.cookies.sessionToken.name;
  /** `request`: the request, or its memoised builder. Flat arguments: no options object per request. */
  function sessionState(
    request: Request | (() => Request),
    info: RequestInfo | undefined,
    fresh: boolean,
    viaPlugins: boolean,
  ): SessionState | Promise<SessionState> {
    const cookie = info?.cookie;
    const value = readCookie(cookie !== undefined ? cookie : requestOf(request).headers.get('cookie'), cookieName);
    if (!value) {
      // Plugins may read other credentials (an API key in Authorization); plain apps pay nothing here.
      if (viaPlugins && hooks.resolveSession.length > 0) return viaResolvers(requestOf(request), info ?? {});
      return empty();
    }
    const read = strategy.read(value, fresh ? { fresh: true } : undefined);
    return read instanceof Promise ? read.then(stateOfRead) : stateOfRead(read);
  }

  async function viaResolvers(request: Request, info: RequestInfo): Promise<SessionState> {
    for (const resolve of hooks.resolveSession) {
      const state = await resolve(request, info);
      // Every read passes the checks a sign-in would (a ban, an unverified email), and is marked as a credential.
      if (state) return admitCredential(hooks.checkCredential, state, request);
    }
    return empty();
  }

  function stateOfRead(read: SessionRead): SessionState | Promise<SessionState> {
    const headers = new Headers();
    if (read.status !== 'valid') {
      headers.append('set-cookie', serializeCookie(clearSessionCookie(deps)));
      return { session: null, user: null, expired: read.status === 'expired', headers };
    }
    const session: Session = { user: read.user, expires: read.expires };
    if (read.impersonatedBy) session.impersonatedBy = read.impersonatedBy;
    if (read.refreshed)
      headers.append('set-cookie', serializeCookie(sessionCookie(deps, read.refreshed.value, read.refreshed.expires)));
    const shape = callbacks.session;
    if (!shape) return { session, user: read.user, expired: false, headers };
    return Promise.resolve(shape({ session, user: read.user, ...(read.token ? { token: read.token } : {}) })).then(
      (shaped) => ({ session: shaped, user: shaped.user ?? read.user, expired: false, headers }),
    );
  }

  function scopeOf(request: Request | (() => Request), state: SessionState): AuthScope | Promise<AuthScope> {
    const scope: AuthScope =
      typeof request === 'function'
        ? new ScopeOfBuiltRequest(state, request, config, { ...extensions })
        : {
            session: state.session,
            user: state.user,
            expired: state.expired,
            headers: state.headers,
            request,
            config,
            extensions: { ...extensions },
          };
    if (state.user && hooks.requestRoles.length > 0) return withGrantedRoles(scope, state.user);
    return scope;
  }

  async function withGrantedRoles(scope: AuthScope, user: User): Promise<AuthScope> {
    const granted: string[] = [];
    for (const roles of hooks.requestRoles) granted.push(...(await roles(scope.request, user)));
    if (granted.length > 0) scope.grantedRoles = granted;
    return scope;
  }

  return {
    readSession(request, options = {}) {
      // Not async: an async function returning a promise would spend two more ticks adopting it.
      try {
        const state = sessionState(request, options.info, options.fresh === true, options.viaPlugins !== false);
        return state instanceof Promise ? state : Promise.resolve(state);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    openScope(source, info) {
      try {
        // A builder is memoised (called at most once); a Request is used as it is.
        const request = typeof source === 'function' ? memoised(source) : source;
        const state = sessionState(request, info, false, true);
        return state instanceof Promise ? state.then((s) => scopeOf(request, s)) : scopeOf(request, state);
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}
