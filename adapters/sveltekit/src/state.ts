/**
 * Per-request state shared by `authHandle` and the guards, kept in a
 * `WeakMap` keyed by `event.locals` (the one object every hook in a
 * `sequence()` and every load function of a request shares).
 * @internal
 * @module
 */
import type { RequestEvent } from '@sveltejs/kit';
import type { Auth, AuthError, AuthScope } from '@framework/auth';

/** What the guards need of the request's session. */
export type SessionRead = Pick<AuthScope, 'user' | 'session' | 'expired' | 'headers' | 'extensions'>;

/** @internal */
export interface EventAuthState {
  auth: Auth;
  /** The session, read once (eagerly in scope mode, on first use otherwise). */
  read(): Promise<SessionRead>;
  /** Extra Set-Cookie lines to send with the response (`forwardCookies`). */
  cookies: Headers;
  /** The kit error a guard threw, answered as the kit answers it for JSON clients. */
  thrown?: AuthError;
}

const states = new WeakMap<object, EventAuthState>();

/** @internal */
export function attachState(event: Pick<RequestEvent, 'locals'>, state: EventAuthState): void {
  states.set(event.locals, state);
}

/**
 * The state `authHandle` attached to the event.
 * @throws Error when `authHandle` did not run for this request.
 * @internal
 */
export function stateOf(event: Pick<RequestEvent, 'locals'>, caller: string): EventAuthState {
  const state = states.get(event.locals);
  if (!state) throw new Error(`${caller}() needs authHandle(auth) in src/hooks.server.ts (export const handle = authHandle(auth), or inside sequence()).`);
  return state;
}
