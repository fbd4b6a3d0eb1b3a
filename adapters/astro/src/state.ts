/**
 * Per-request state shared by `authMiddleware` and the guards, on `locals` under a registered symbol (so every
 * copy of this module, in every bundle of an app, finds it).
 * @internal
 * @module
 */
import type { Auth, AuthScope } from '@framework/auth';

const STATE = Symbol.for('@framework/astro.auth-state');

/** @internal */
export interface LocalsAuthState {
  auth: Auth;
  scope: AuthScope;
}

type Slot = { [STATE]?: LocalsAuthState };

/** @internal */
export function attachState(locals: object, state: LocalsAuthState): void {
  (locals as Slot)[STATE] = state;
}

/**
 * @internal The state `authMiddleware` attached.
 * @throws Error when `authMiddleware` did not run for this request.
 */
export function stateOf(locals: object, caller: string): LocalsAuthState {
  const state = (locals as Slot)[STATE];
  if (!state)
    throw new Error(
      `${caller}() needs authMiddleware(auth) in src/middleware.ts (export const onRequest = authMiddleware(auth), or inside sequence()).`,
    );
  return state;
}
