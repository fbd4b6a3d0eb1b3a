/**
 * `requireUser(event)` and `requireRole(event, role)`: guards for load
 * functions, actions and endpoints that throw SvelteKit's `redirect` /
 * `error`.
 * @module
 */
import { redirect, type RequestEvent } from '@sveltejs/kit';
import { checkRole, SessionExpiredError, UnauthenticatedError, type User } from '@framework/auth';
import { refuse, stateOf, type EventAuthState, type SessionRead } from './state.js';

/** Options of {@link requireUser} and {@link requireRole}. */
export interface RequireUserOptions {
  /** Redirect signed-out visitors here instead of the sign-in page (with `callbackUrl`). */
  redirectTo?: string;
  /**
   * Throw `error(401)` instead of redirecting (for endpoints and JSON
   * clients). The body is `{message, code}` (`UNAUTHENTICATED`, or
   * `SESSION_EXPIRED` when the cookie was there but expired); JSON clients
   * get the kit's `{error: {code, message}}` through `authHandle`.
   */
  throwError?: boolean;
}

type GuardEvent = Pick<RequestEvent, 'locals' | 'request' | 'url'>;

/** `GET`/`HEAD` are sent on with 302, form posts with 303 (the browser then GETs the target). */
function redirectStatus(request: Request): 302 | 303 {
  return request.method === 'GET' || request.method === 'HEAD' ? 302 : 303;
}

/**
 * The signed-in user. Without one it throws `redirect(302)` (303 for
 * actions) to the sign-in page with `callbackUrl` set to the current path
 * and query, or to `redirectTo`; with `{throwError: true}` it throws
 * `error(401)`.
 * @throws SvelteKit `Redirect` or `HttpError`; Error when `authHandle` did not run.
 * @example
 * ```ts
 * // src/routes/dashboard/+page.server.ts
 * export const load: PageServerLoad = async (event) => {
 *   const user = await requireUser(event);
 *   return { name: user.name };
 * };
 * ```
 */
export function requireUser(event: GuardEvent, options: RequireUserOptions = {}): Promise<User> {
  // Not async: read before `resolve` (the default), the answer is one settled promise.
  try {
    const state = stateOf(event, 'requireUser');
    const known = state.known;
    if (known) return Promise.resolve(userOrRefusal(event, state, known, options));
    return state.read().then((read) => userOrRefusal(event, state, read, options));
  } catch (thrown) {
    return Promise.reject(thrown);
  }
}

/** The user of `read`; signed out, SvelteKit's `error(401)` or `redirect` as {@link requireUser} documents. */
function userOrRefusal(
  event: GuardEvent,
  state: EventAuthState,
  read: Pick<SessionRead, 'user' | 'expired'>,
  options: RequireUserOptions,
): User {
  if (read.user) return read.user;
  if (options.throwError) refuse(state, read.expired ? new SessionExpiredError() : new UnauthenticatedError());
  const target =
    options.redirectTo ??
    `${state.auth.config.pages.signIn}?callbackUrl=${encodeURIComponent(event.url.pathname + event.url.search)}`;
  redirect(redirectStatus(event.request), target);
}

/**
 * The signed-in user when they hold `role` (an array: any of them). Signed
 * out: as {@link requireUser}. Without the role: `error(403)` with
 * `{message, code: 'FORBIDDEN'}` (the kit's JSON for JSON clients).
 * The check is `checkRole` from `@framework/auth`, as for the core's
 * `requireRole` and every other adapter: roles come from `createAuth({rbac})`
 * (with its hierarchy) only.
 * @throws SvelteKit `Redirect` or `HttpError`; Error when `authHandle` did
 *   not run or `createAuth` got no `rbac` (fails closed, never falls back to
 *   `user.role`); AuthConfigError for a role id the definitions lack.
 * @example
 * ```ts
 * // src/routes/admin/+page.server.ts
 * export const load: PageServerLoad = async (event) => ({ admin: await requireRole(event, 'admin') });
 * ```
 */
export async function requireRole(
  event: GuardEvent,
  role: string | readonly string[],
  options: RequireUserOptions = {},
): Promise<User> {
  const state = stateOf(event, 'requireRole');
  const read = state.known ?? (await state.read());
  const refusal = checkRole(read.extensions.rbac, read.user, role);
  if (!refusal) return read.user!;
  if (refusal instanceof UnauthenticatedError) return requireUser(event, options);
  refuse(state, refusal);
}
