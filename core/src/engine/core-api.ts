/**
 * The built-in routes on `auth.api`, with their bodies and answers.
 * @module
 */
import type { ApiEndpoint, ApiMethods } from '../contract/api.js';
import type { OkJson, ProvidersJson, SessionInfoJson, SessionJson } from '../contract/wire.js';
import { endpoint } from './endpoint.js';

/** Where the browser goes after a flow that redirects; an absolute URL on a trusted origin, or a path. */
type Callback = { callbackUrl?: string };

/** The sign-in, session and account routes (always on). */
export const CORE_API = {
  /** `GET /session`: the session of `headers`' cookie, or null. */
  getSession: endpoint<void, SessionJson | null>('GET', 'session'),
  /** `GET /providers`. */
  listProviders: endpoint<void, ProvidersJson>('GET', 'providers'),
  /**
   * `POST /signin/:provider` with a credentials provider (`options.provider`, default `credentials`): the fields
   * are the provider's. `returnHeaders: true` gives the session's `Set-Cookie`.
   */
  signInCredentials: endpoint<Record<string, string> & Callback, OkJson>('POST', 'signin/:provider'),
  /** `POST /signout`: ends the session of `headers` (`everywhere: 'true'`: every session of the user). */
  signOut: endpoint<{ everywhere?: 'true' } & Callback, OkJson>('POST', 'signout'),
  /** `GET /sessions`: the user's signed-in devices. */
  listSessions: endpoint<void, { sessions: SessionInfoJson[] }>('GET', 'sessions'),
  /** `POST /sessions/revoke`: ends one of the user's sessions by its public id. */
  revokeSession: endpoint<{ sessionId: string }, OkJson>('POST', 'sessions/revoke'),
  /** `POST /account/unlink`: removes a linked sign-in method (never the last one). */
  unlinkAccount: endpoint<{ providerId: string } & Callback, OkJson>('POST', 'account/unlink'),
  /** `POST /account/delete`: deletes the signed-in user (the password, or a fresh sign-in). */
  deleteAccount: endpoint<{ password?: string } & Callback, OkJson>('POST', 'account/delete'),
} satisfies Record<string, ApiEndpoint<any, any>>;

/** `emailAndPassword()`'s routes on `auth.api`. */
export const EMAIL_PASSWORD_API = {
  /** `POST /signup` (when `signUp` is on): creates the account and signs in (or asks to verify the email). */
  signUpEmail: endpoint<{ email: string; password: string; name?: string } & Callback, OkJson>('POST', 'signup'),
  /** `POST /verify-email/send`: a new verification link for the address (the same answer for unknown ones). */
  sendVerificationEmail: endpoint<{ email: string } & Callback, OkJson>('POST', 'verify-email/send'),
  /** `POST /verify-email`: uses a verification link's token. */
  verifyEmail: endpoint<{ token: string; email: string }, OkJson>('POST', 'verify-email'),
  /** `POST /password/forgot`: sends a reset link (the same answer for unknown addresses). */
  forgotPassword: endpoint<{ email: string } & Callback, OkJson>('POST', 'password/forgot'),
  /** `POST /password/reset`: sets a new password with a reset link's token. */
  resetPassword: endpoint<{ token: string; password: string }, OkJson>('POST', 'password/reset'),
  /** `POST /password/change` for the session of `headers`. */
  changePassword: endpoint<{ currentPassword: string; newPassword: string; revokeOtherSessions?: 'true' }, OkJson>(
    'POST',
    'password/change',
  ),
  /** `POST /email/change`: mails a confirmation link to the new address. */
  changeEmail: endpoint<{ email: string; password?: string } & Callback, OkJson>('POST', 'email/change'),
} satisfies Record<string, ApiEndpoint<any, any>>;

/** The built-in methods of `auth.api`. The `emailAndPassword` ones answer 404 `NOT_FOUND` without it. */
export type CoreApi = ApiMethods<typeof CORE_API> & ApiMethods<typeof EMAIL_PASSWORD_API>;
