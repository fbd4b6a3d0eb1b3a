/**
 * `@framework/auth-client/plugins/multi-session`: the browser side of the server's `multiSession()` plugin
 * (`@framework/auth/plugins/multi-session`): the accounts signed in on this browser, switching the active one, and
 * signing one out. Each function resolves to an {@link AccountResult} and never rejects.
 *
 * Errors: `DEVICE_SESSION_NOT_FOUND` (404: the id is not one of this browser's live accounts), `INVALID_REQUEST`
 * (400: no id), `IMPERSONATION_RESTRICTED` (403), `CSRF_TOKEN_INVALID` (403).
 * @module
 */
import { authRequest, type AccountResult, type AuthClientOptions } from '@framework/auth-client';

/** One account signed in on this browser. `expires` is ISO 8601; the session's token never reaches the page. */
export interface DeviceSession {
  /** The session's public id: what {@link setActiveSession} and {@link revokeDeviceSession} take. */
  sessionId: string;
  /** Whether it is the browser's active account. */
  active: boolean;
  expires: string;
  user: { id: string; name: string | null; email: string | null; image: string | null };
}

/**
 * The accounts signed in on this browser, the active one first: `GET {basePath}/multi-session/list`. Empty when
 * none is.
 * @example
 * ```ts
 * const { data } = await listDeviceSessions();
 * for (const s of data?.sessions ?? []) console.log(s.user.email, s.active);
 * ```
 */
export const listDeviceSessions = (options?: AuthClientOptions) =>
  authRequest<{ sessions: DeviceSession[] }>('/multi-session/list', options);

/**
 * Makes one of this browser's accounts the active one: `POST {basePath}/multi-session/set-active`. On success the
 * session store refreshes, so `useSession()` and friends show that account.
 * @example
 * ```ts
 * const { ok, error } = await setActiveSession(sessionId); // error 'DEVICE_SESSION_NOT_FOUND' when not held here
 * ```
 */
export const setActiveSession = (sessionId: string, options?: AuthClientOptions) =>
  authRequest<{ session: DeviceSession }>('/multi-session/set-active', options, { sessionId }, true);

/**
 * Signs one of this browser's accounts out (its session ends on the server): `POST {basePath}/multi-session/revoke`.
 * When it was the active one, the most recently added other account becomes active (`data.active`), or none
 * (`null`). The session store refreshes.
 * @example
 * ```ts
 * const { data } = await revokeDeviceSession(sessionId);
 * if (data?.active === null) location.assign('/');
 * ```
 */
export const revokeDeviceSession = (sessionId: string, options?: AuthClientOptions) =>
  authRequest<{ active: string | null }>('/multi-session/revoke', options, { sessionId }, true);

export type { AccountResult };
