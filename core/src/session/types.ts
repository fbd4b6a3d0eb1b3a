/**
 * The session-strategy contract shared by the `database` and `jwt` strategies.
 * @internal
 * @module
 */
import type { Account, JWT, Profile, User } from '../types.js';

/** What a sign-in hands to the strategy. */
export interface SessionIssueInput {
  user: User;
  account: Account | null;
  profile?: Profile;
  /** True when the user was created by this sign-in (jwt trigger `signUp`). */
  isNewUser?: boolean;
  /** The session cookie the browser sent, if any: rotated away (OWASP ASVS V3.2.1). */
  previous?: string;
  /** The signing-in client, recorded on database sessions (the "signed-in devices" list). */
  client?: SessionClient;
  /**
   * An impersonation session (`admin()`): the acting admin's user id, stored
   * on the database row or as the JWT `act` claim (RFC 8693 §4.1).
   * Such a session never slides past its first expiry.
   */
  impersonatedBy?: string;
  /** Lifetime in seconds instead of `session.maxAge` (at most it). */
  maxAge?: number;
  /**
   * When the person signed in, for a session that continues an earlier sign-in under a new token (`multiSession()`
   * keeping an account): stored as the database row's `createdAt`, which reads answer as `authTime` (what freshness
   * checks such as OIDC `max_age` read), so a re-issue does not pass for a new sign-in. Default: now. The database
   * strategy only: the jwt strategy (which `multiSession()` refuses) stamps `auth_time` now.
   */
  authTime?: Date;
}

/** Facts about the client a session was issued to. */
export interface SessionClient {
  userAgent?: string;
  ip?: string;
}

/** A fresh cookie value and its expiry. */
export interface IssuedSession {
  value: string;
  expires: Date;
}

/** The outcome of reading a session cookie. */
export type SessionRead =
  | {
      status: 'valid';
      user: User;
      expires: Date;
      token?: JWT;
      refreshed?: IssuedSession;
      /** The database session's public id (the part of the cookie before the dot). */
      sessionId?: string;
      /** When the person signed in: the session's `createdAt`, or the JWT's `auth_time` claim. */
      authTime?: Date;
      /** The admin acting as this user (impersonation), when it is one. */
      impersonatedBy?: string;
    }
  | { status: 'expired' }
  | { status: 'none' };

export interface SessionStrategy {
  issue(input: SessionIssueInput): Promise<IssuedSession>;
  /**
   * Reads a session cookie. `fresh`: confirm the session against storage now
   * (jwt: regardless of `revalidateAge`), for routes that add credentials.
   */
  /** Synchronous when the answer needs no I/O (a JWT verified before and not due a check), so hot reads skip a tick. */
  read(value: string, options?: { fresh?: boolean }): SessionRead | Promise<SessionRead>;
  /**
   * Ends every session of a user (database rows deleted, the session version
   * bumped so JWT sessions end; this process's cached tokens are re-checked at
   * once). Returns how many database sessions were deleted.
   */
  revokeUser(userId: string): Promise<number>;
  /** Applies `POST /session` data (jwt: the `update` trigger; database: a refresh). */
  update(value: string, data: unknown): Promise<SessionRead>;
  /** Ends the session behind `value`; `everywhere` also ends the user's other sessions. */
  revoke(value: string, everywhere?: boolean): Promise<void>;
}
