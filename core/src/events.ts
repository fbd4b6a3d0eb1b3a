/**
 * Auth events: `createAuth({ events })`, typed and awaited hooks the core
 * calls at its security-relevant steps (sign-up, sign-in and its failures,
 * sign-out, password reset and change, email verification and change,
 * account deletion), each with who, what, the client's IP and User-Agent,
 * and a request id. A failing `on*` hook is logged (its error name only) and
 * never breaks the flow; `beforeSignIn` may refuse with an `AuthError`.
 * @module
 */
import { AuthError } from './errors.js';
import { authError } from './errors/auth-error.js';
import type { Account, User } from './types.js';

/** What every event carries about the request. */
export interface AuthEventContext {
  /**
   * The W3C Trace Context trace id of the request (`traceparent`, Trace
   * Context §3.2) when it carries a valid one, else a random UUID: one id
   * for the events of one request.
   */
  requestId: string;
  /** The client's IP address, when the adapter passed it. */
  ip: string | null;
  /** The `User-Agent` header, cut to 512 characters. */
  userAgent: string | null;
  /** When the event happened. */
  at: Date;
}

/** An organization as events name it. */
export interface OrganizationRef {
  id: string;
  slug: string;
  name: string;
}

/** The payload of each event, without the {@link AuthEventContext} part. */
export interface AuthEventPayloads {
  onSignUp: { user: User; account: Account | null };
  onSignIn: { user: User; account: Account | null; isNewUser: boolean };
  onSignInFailed: {
    provider: string;
    identifier: string | null;
    reason: 'invalid-credentials' | 'email-not-verified' | 'denied';
  };
  onSignOut: { user: User | null; everywhere: boolean };
  onPasswordReset: { user: User };
  onPasswordChanged: { user: User; otherSessionsRevoked: boolean };
  onEmailVerified: { user: User; email: string };
  onEmailChanged: { user: User; from: string | null; to: string };
  onAccountDeleted: { user: User };
  /** `twoFactor()`: a TOTP enrolment was confirmed by its first code. */
  onTwoFactorEnabled: { user: User };
  /** `twoFactor()`: the second factor was turned off (its backup codes and trusted devices went with it). */
  onTwoFactorDisabled: { user: User };
  /**
   * `twoFactor()`: the user's wrong codes spent their failure budget (`lockout.limit`, across challenges and IPs);
   * codes are refused until `until`. Fired once per lock: tell the user (someone may hold their password).
   */
  onTwoFactorLocked: { user: User; until: Date; failures: number };
  /** `admin()`: an admin created a user. */
  onUserCreated: { user: User; admin: User };
  /** `admin()`: an admin set a user's role (their JWT sessions end at the next check). */
  onUserRoleSet: { user: User; admin: User; role: string };
  /** `admin()`: a user was banned (their sessions were revoked); `expiresAt` null means until unbanned. */
  onUserBanned: { user: User; admin: User; reason: string | null; expiresAt: Date | null };
  /** `admin()`: a ban was lifted. */
  onUserUnbanned: { user: User; admin: User };
  /** `admin()`: an admin ended every session of a user. */
  onUserSessionsRevoked: { user: User; admin: User; revoked: number };
  /** `admin()`: an admin removed a user with their accounts and sessions. */
  onUserRemoved: { user: User; admin: User };
  /** `admin()`: an admin started a session acting as `user` (`session.impersonatedBy`). */
  onImpersonationStarted: { user: User; admin: User; expires: Date };
  /** `admin()`: the impersonation session ended (`POST /admin/stop-impersonating`). */
  onImpersonationStopped: { user: User; admin: User | null };
  /** `organizations()`: `user` created `organization` (and owns it). */
  onOrganizationCreated: { user: User; organization: OrganizationRef };
  /** `organizations()`: an owner deleted `organization` with its memberships and invitations. */
  onOrganizationDeleted: { user: User; organization: OrganizationRef };
  /** `organizations()`: `actor` invited `email` with `role`. */
  onMemberInvited: { actor: User; organization: OrganizationRef; email: string; role: string };
  /** `organizations()`: `user` accepted an invitation and is a member with `role`. */
  onInvitationAccepted: { user: User; organization: OrganizationRef; role: string };
  /** `organizations()`: `actor` gave `user` the role `role` (a transfer of ownership too). */
  onMemberRoleChanged: { user: User; actor: User; organization: OrganizationRef; role: string };
  /** `organizations()`: `user` left, or `actor` removed them. */
  onMemberRemoved: { user: User; actor: User; organization: OrganizationRef };
}

/** The name of an `on*` event. */
export type AuthEventName = keyof AuthEventPayloads;

/** An event as a hook receives it. */
export type AuthEvent<N extends AuthEventName> = AuthEventPayloads[N] & AuthEventContext & { type: N };

/**
 * The `events` option of `createAuth`. Every hook is awaited in the
 * request; a throw from an `on*` hook is logged and ignored.
 * @example
 * ```ts
 * createAuth({
 *   ...config,
 *   events: {
 *     onSignIn: ({ user, ip, requestId }) => audit.write('signin', user.id, ip, requestId),
 *     beforeSignIn: ({ user }) => {
 *       if (isBlocked(user.email)) throw new AuthError('Blocked', { code: 'ACCESS_DENIED' });
 *     },
 *   },
 * });
 * ```
 */
export type AuthEvents = {
  [N in AuthEventName]?: (event: AuthEvent<N>) => void | Promise<void>;
} & {
  /**
   * Before any sign-in (after the `signIn` callback, before anything is
   * written): throw an `AuthError` to refuse it with that error's code and
   * status. Any other throw answers 500 `CALLBACK_ERROR`.
   */
  beforeSignIn?: (
    event: { user: User; account: Account | null; isNewUser: boolean } & AuthEventContext & { type: 'beforeSignIn' },
  ) => void | Promise<void>;
};

const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;

/** The event context of a request. */
export function eventContext(request: Request, ip: string | undefined, at = new Date()): AuthEventContext {
  const trace = TRACEPARENT.exec(request.headers.get('traceparent')?.trim().toLowerCase() ?? '')?.[1];
  const requestId = trace && !/^0+$/.test(trace) ? trace : crypto.randomUUID();
  const userAgent = request.headers.get('user-agent');
  return { requestId, ip: ip ?? null, userAgent: userAgent ? userAgent.slice(0, 512) : null, at };
}

/** Any `on*` event, as a plugin's `onEvent` hook receives it. */
export type AnyAuthEvent = { [N in AuthEventName]: AuthEvent<N> }[AuthEventName];

/** What {@link emitAuthEvent} needs of the core. */
export interface EventHost {
  events: AuthEvents | undefined;
  /** The plugins' `onEvent` hooks, called after the app's hook. */
  listeners?: readonly ((event: AnyAuthEvent) => void | Promise<void>)[];
  logger: { error(message: string): void };
}

/**
 * Calls the app's hook for `name`, then each plugin's `onEvent`, awaited in
 * turn. A throw is logged with the hook's name and the error's name, never
 * its message (it may hold data), and the flow goes on.
 */
export async function emitAuthEvent<N extends AuthEventName>(
  host: EventHost,
  context: AuthEventContext,
  name: N,
  payload: AuthEventPayloads[N],
): Promise<void> {
  const hook = host.events?.[name] as ((event: AuthEvent<N>) => void | Promise<void>) | undefined;
  const listeners = host.listeners ?? [];
  if (!hook && listeners.length === 0) return;
  const event = { ...payload, ...context, type: name } as unknown as AuthEvent<N>;
  type Call = (e: AuthEvent<N>) => void | Promise<void>;
  const calls: [string, Call][] = hook ? [[`events.${name}`, hook]] : [];
  for (const listener of listeners) calls.push([`a plugin's onEvent(${name})`, listener as unknown as Call]);
  for (const [label, call] of calls) {
    try {
      await call(event);
    } catch (error) {
      host.logger.error(
        `[auth] ${label} threw ${error instanceof Error ? error.name : typeof error}; the flow went on`,
      );
    }
  }
}

/**
 * Calls `beforeSignIn`. An `AuthError` it throws refuses the sign-in.
 * @throws AuthError from the hook, or `CALLBACK_ERROR` (500) for any other throw.
 */
export async function beforeSignIn(
  host: EventHost,
  context: AuthEventContext,
  payload: { user: User; account: Account | null; isNewUser: boolean },
): Promise<void> {
  const hook = host.events?.beforeSignIn;
  if (!hook) return;
  try {
    await hook({ ...payload, ...context, type: 'beforeSignIn' });
  } catch (error) {
    if (error instanceof AuthError) throw error;
    host.logger.error(`[auth] events.beforeSignIn threw ${error instanceof Error ? error.name : typeof error}`);
    throw authError('CALLBACK_ERROR', 'The beforeSignIn event failed');
  }
}
