/**
 * `multiSession()`: several accounts signed in on one browser; list them, switch the active one, sign one out.
 * @module
 */
import { AuthConfigError, endpoint, type AuthPlugin, type ErrorCodesOf } from '../../plugin-kit.js';
import { MULTI_SESSION_ERRORS } from './errors.js';
import type { DeviceSessionInfo } from './info.js';
import { resolveMultiSessionOptions, type MultiSessionOptions } from './options.js';
import { listAction, pageAction, revokeAction, setActiveAction } from './routes.js';
import { promoteNext } from './promote.js';
import { SignInCarry, signOutAll } from './sign-in.js';

/**
 * The routes of `multiSession()` on `auth.api`, acting as the browser whose cookies are in `headers`.
 * @example
 * ```ts
 * const { sessions } = await auth.api.listDeviceSessions(undefined, { headers: request.headers });
 * ```
 */
export const MULTI_SESSION_API = {
  /** `GET /multi-session/list`. */
  listDeviceSessions: endpoint<void, { sessions: DeviceSessionInfo[] }>('GET', 'multi-session/list'),
  /** `POST /multi-session/set-active`. */
  setActiveSession: endpoint<{ sessionId: string }, { ok: true; session: DeviceSessionInfo }>(
    'POST',
    'multi-session/set-active',
  ),
  /** `POST /multi-session/revoke`. */
  revokeDeviceSession: endpoint<{ sessionId: string }, { ok: true; active: string | null }>(
    'POST',
    'multi-session/revoke',
  ),
};

/**
 * Several accounts signed in on one browser. Each account keeps its own stored session (a normal session row,
 * revocable on its own, listed by `GET /sessions`); the browser holds the active one in the session cookie and the
 * others' tokens in the HttpOnly cookie `framework.multi-session` (`__Secure-` over HTTPS, `Path` = `basePath`; `__Host-`,
 * `Path=/`, when the session cookie is `__Host-`, so it is no easier to plant than the session cookie),
 * sealed with the kit's `seal` (JWE `dir` + A256GCM under a key derived from the auth secret for this purpose).
 * Every use checks each token against storage: a session revoked elsewhere, expired, or ended by a ban drops out
 * silently, and a tampered cookie counts as empty.
 *
 * - A sign-in as another user (any method that ends in the core's sign-in, a second factor's resumption
 *   included) keeps the account that was active: its session continues under a fresh token with the same expiry
 *   (the token the browser sent is still rotated away, OWASP ASVS V3.2.1). A second session of the user who signs
 *   in replaces the older one, which is revoked. Impersonation sessions (`admin()`) are never kept.
 * - `maximumSessions` (default 5, the active account included): past it, the account added longest ago is signed
 *   out (its session revoked); the new sign-in always succeeds.
 * - `GET {basePath}/multi-session/list`: `{ sessions: [{ sessionId, active, expires, user: { id, name, email, image
 *   } }] }`, the active one first; never a token.
 * - `POST {basePath}/multi-session/set-active { sessionId }` (CSRF-checked): the session cookie becomes that
 *   account's. `POST {basePath}/multi-session/revoke { sessionId }` (CSRF-checked): ends that session; when it was
 *   the active one, the most recently added other account becomes active, or the browser is signed out. A
 *   `sessionId` that is not one of this browser's live accounts (another browser's, say) answers 404
 *   `DEVICE_SESSION_NOT_FOUND` and changes nothing; from an impersonation, 403 `IMPERSONATION_RESTRICTED`. Like
 *   `POST /sessions/revoke`, neither route has a rate limit of its own (an app's `rateLimit.rules` may add one).
 * - When the active session ends another way (the account deleted, `POST /sessions/revoke` of the current session,
 *   a ban, expiry, a revocation elsewhere), the answer that clears the session cookie, or the next read of
 *   `GET {basePath}/session` or the plugin's routes, makes the most recently added live account active instead (its
 *   session cookie is set; `GET /session` answers it); accounts that ended drop out, and with none left the browser
 *   is signed out. The app's own routes (`auth.getSession` outside `basePath`) see the browser signed out until then.
 * - Two sign-ins of one browser at once (two tabs) keep the account that was active as one re-issued session, the
 *   same in both answers; the browser keeps the answer it applies last (the other new session stays a normal
 *   session of its user, listed by `GET /sessions`). A sign-in carrying the first one's cookies keeps both.
 * - `POST {basePath}/signout` ends every account of the browser, not only the active one.
 * - `GET {basePath}/multi-session`: a no-JS page listing the accounts with Switch and Sign out buttons and an
 *   "Add another account" link to the sign-in page.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) for bad options; at `createAuth`, without an `adapter` or with the
 *   `jwt` session strategy (a JWT session cannot be ended on its own, so it cannot be one account of several).
 * @example
 * ```ts
 * import { createAuth } from '@framework/auth';
 * import { multiSession } from '@framework/auth/plugins/multi-session';
 *
 * const auth = createAuth({
 *   adapter,
 *   session: { strategy: 'database' },
 *   emailAndPassword: {},
 *   plugins: [multiSession({ maximumSessions: 3 })],
 * });
 * // Sign in as Ada, then as Grace in the same browser: GET /auth/multi-session/list shows both.
 * ```
 */
export function multiSession(
  options: MultiSessionOptions = {},
): AuthPlugin<'multiSession', unknown, typeof MULTI_SESSION_API, ErrorCodesOf<typeof MULTI_SESSION_ERRORS>> {
  const { maximumSessions } = resolveMultiSessionOptions(options);
  const carry = new SignInCarry();
  return {
    id: 'multiSession',
    errorCodes: MULTI_SESSION_ERRORS,
    init(auth) {
      if (!auth.adapter)
        throw new AuthConfigError(
          'Invalid auth config: multiSession() needs `adapter` (each account has a stored session)',
        );
      if (auth.config.session.strategy !== 'database')
        throw new AuthConfigError(
          'Invalid auth config: multiSession() needs `session: { strategy: "database" }` (a JWT session cannot be signed out on its own)',
        );
      return undefined;
    },
    api: MULTI_SESSION_API,
    routes: {
      'multi-session': { GET: pageAction },
      'multi-session/list': { GET: listAction },
      'multi-session/set-active': { POST: setActiveAction },
      'multi-session/revoke': { POST: revokeAction },
    },
    hooks: {
      beforeAction: (ctx) => carry.arrived(ctx),
      beforeSession: (ctx, subject) => carry.note(ctx, subject),
      afterSignIn: (ctx, subject) => carry.keep(ctx, subject, maximumSessions),
      signedOut: (ctx) => signOutAll(ctx),
      afterAction: promoteNext,
    },
  };
}
