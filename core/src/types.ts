/**
 * Shared record shapes of `@framework/auth` (user, account, session,
 * verification token), documented in core/README.md "Storage adapters".
 * @module
 */

/** A signed-in person. `id` is always ours, never a provider's raw id. */
export interface User {
  id: string;
  email?: string | null;
  name?: string | null;
  image?: string | null;
  /** When the email address was proven to belong to the user, or null. */
  emailVerified?: Date | null;
  /** A single role id (RBAC). `roles` wins when both are set. */
  role?: string;
  /** Several role ids (RBAC). */
  roles?: string[];
}

/** The session as the app sees it (`GET /auth/session`, `getSession()`). */
export interface Session {
  user: User;
  /** When the session stops being valid. */
  expires: Date;
  /**
   * Set when an admin is acting as `user` (`admin()` impersonation): the
   * admin's user id. Apps should show it ("You are acting as …").
   */
  impersonatedBy?: string;
}

/** How an account signs in: `Account.type` (core/README.md "Storage adapters"). */
export type AccountType = 'oauth' | 'oidc' | 'email' | 'credentials' | 'webauthn';

/** A sign-in method linked to a user. Field names follow RFC 6749 §5.1 for tokens. */
export interface Account {
  provider: string;
  providerAccountId: string;
  type: AccountType;
  access_token?: string;
  refresh_token?: string;
  /** Access-token expiry, in seconds since the Unix epoch. */
  expires_at?: number;
  token_type?: string;
  scope?: string;
  id_token?: string;
}

/** The claims of a session JWT (`jwt` strategy). */
export interface JWT {
  /** Subject: the user id. */
  sub?: string;
  /** Issued at, seconds since the epoch. */
  iat?: number;
  /** Expires at, seconds since the epoch. */
  exp?: number;
  /** Unique token id. */
  jti?: string;
  [claim: string]: unknown;
}

/** The provider's raw profile, passed to callbacks. Its fields depend on the provider. */
export type Profile = Record<string, unknown>;
