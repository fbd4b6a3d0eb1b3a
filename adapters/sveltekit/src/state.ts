/**
 * Per-request state shared by `authHandle` and the guards, kept in a
 * `WeakMap` keyed by `event.locals` (the one object every hook in a
 * `sequence()` and every load function of a request shares).
 * @internal
 * @module
 */
import { error, type RequestEvent } from '@sveltejs/kit';
import { AuthError, type Auth, type AuthScope } from '@framework/auth';

/** What the guards need of the request's session. */
export type SessionRead = Pick<AuthScope, 'user' | 'session' | 'expired' | 'headers' | 'extensions'>;

/** @internal */
export interface EventAuthState {
  auth: Auth;
  /** The session once read: set before `resolve` unless `authHandle` reads lazily (`{lazy: true}`). */
  known?: SessionRead;
  /** The session, read once (before `resolve`, or on first use with `{lazy: true}`). */
  read(): Promise<SessionRead>;
  /** Extra Set-Cookie lines to send with the response (`forwardCookies`); made on the first one. */
  cookies?: string[];
  /** The kit error a guard threw, answered as the kit answers it for JSON clients. */
  thrown?: AuthError;
}

/**
 * Where a request's state is kept: a non-enumerable symbol property of its `event.locals`, so it goes with the
 * request (a WeakMap entry per request made the garbage collector's young-generation passes dearer by several µs a
 * request under load).
 */
const STATE: unique symbol = Symbol('@framework/sveltekit.state');
type WithState = { [STATE]?: EventAuthState };

/** @internal */
export function attachState(event: Pick<RequestEvent, 'locals'>, state: EventAuthState): void {
  Object.defineProperty(event.locals, STATE, { value: state, configurable: true, writable: true, enumerable: false });
}

/**
 * The state `authHandle` attached to the event.
 * @throws Error when `authHandle` did not run for this request.
 * @internal
 */
export function stateOf(event: Pick<RequestEvent, 'locals'>, caller: string): EventAuthState {
  const state = (event.locals as WithState)[STATE];
  if (!state)
    throw new Error(
      `${caller}() needs authHandle(auth) in src/hooks.server.ts (export const handle = authHandle(auth), or inside sequence()).`,
    );
  return state;
}

/**
 * Throws SvelteKit's `error(status, {message, code})` for a kit error,
 * remembering it so `authHandle` answers JSON clients as the kit does.
 * @internal
 */
export function refuse(state: EventAuthState, failure: AuthError): never {
  state.thrown = failure;
  const body = { message: failure.message, code: failure.code }; // App.Error, widened by the app's own declaration
  error(failure.status, body);
}

/**
 * Rethrows `thrown` as {@link refuse} does when it is a kit error (a refused API key, say), unchanged
 * otherwise. @internal
 */
export function refuseAuthError(state: EventAuthState, thrown: unknown): never {
  if (thrown instanceof AuthError) refuse(state, thrown);
  throw thrown;
}
