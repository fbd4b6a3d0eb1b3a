/**
 * Credentials a plugin's `resolveSession` reads (an API key): the checks every such read passes before the request
 * sees it, and the mark that tells such a session (and its user) from a cookie session.
 * @module
 */
import { AuthError } from '../errors.js';
import { authError } from '../errors/auth-error.js';
import type { SessionState, AuthHooks } from '../contract/types.js';
import type { Session, User } from '../types.js';

/** The mark of a plugin-resolved session and its user: an enumerable symbol, kept by `{...}`, dropped by JSON. */
const CREDENTIAL = Symbol.for('@framework/auth.pluginCredential.v1');

/**
 * Whether `value` (a session from `getSession()`, or the user of one) was read from a credential a plugin resolved
 * (an API key), not from the session cookie. Surfaces that only a person at a browser should reach (the dashboard,
 * admin pages) refuse such sessions with 403 `API_KEY_NOT_ALLOWED` unless the app opts in.
 * @example
 * ```ts
 * if (isPluginCredential(getSession())) throw new AuthError('Use the web app', { code: 'API_KEY_NOT_ALLOWED' });
 * ```
 */
export function isPluginCredential(value: Session | User | null | undefined): boolean {
  return !!value && (value as { [CREDENTIAL]?: unknown })[CREDENTIAL] === true;
}

/** 401 `CREDENTIAL_REFUSED`: the credential is valid, but its account may not act now. */
export function credentialRefused(message: string): AuthError {
  return authError('CREDENTIAL_REFUSED', message);
}

/** 403 `API_KEY_NOT_ALLOWED`: this surface takes the session cookie only (unless the app opted in). */
export function apiKeyNotAllowed(what: string): AuthError {
  return authError('API_KEY_NOT_ALLOWED', `${what} cannot be used with an API key; sign in instead`);
}

/**
 * Admits a state a `resolveSession` hook returned, on every read, as a sign-in would be admitted:
 * - a state that claims an impersonation is refused (impersonation is a cookie session of `admin()` only);
 * - every plugin's `checkCredential` hook runs (`admin()`: a banned user → 401 `CREDENTIAL_REFUSED`;
 *   `emailAndPassword()` with `requireEmailVerification`: an unverified email → 403 `EMAIL_NOT_VERIFIED`).
 * The session and user it returns carry the mark {@link isPluginCredential} reads.
 * @throws AuthError `CREDENTIAL_REFUSED` (401), `EMAIL_NOT_VERIFIED` (403), or what a hook throws.
 */
export async function admitCredential(
  checks: readonly NonNullable<AuthHooks['checkCredential']>[],
  state: SessionState,
  request: Request,
): Promise<SessionState> {
  const { session, user } = state;
  if (!session || !user) return { ...state, session: null, user: null };
  if (session.impersonatedBy !== undefined) throw credentialRefused('This credential cannot act as another user');
  for (const check of checks) await check({ ...state, session, user }, request);
  const marked = { ...user, [CREDENTIAL]: true } as User;
  const markedSession = {
    ...session,
    ...(session.user === user ? { user: marked } : {}),
    [CREDENTIAL]: true,
  } as Session;
  return { ...state, session: markedSession, user: marked };
}
