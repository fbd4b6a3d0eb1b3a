/**
 * The records `oidcProvider()` keeps, and the storage it keeps them in.
 * @module
 */

/** A client registered with the provider (OAuth 2.0 client, OpenID Connect relying party). */
export interface OidcClientRecord {
  /** The `client_id`. */
  id: string;
  /** SHA-256 (hex) of the client secret; null for a public client (no secret, PKCE only). */
  secretHash: string | null;
  /** A public client (a mobile app, a CLI, a single-page app): authenticates with `client_id` only. */
  public: boolean;
  /** Shown on the consent page and in "Apps with access". */
  name: string;
  /** The exact redirect URIs (RFC 6749 §3.1.2; compared as strings, never as prefixes). */
  redirectUris: string[];
  /** Where `GET /oauth2/end-session` may send the browser after signing out (exact match). */
  postLogoutRedirectUris: string[];
  /** The scopes the client may ask for. */
  scopes: string[];
  /** Skip the consent page (first-party clients the app trusts). */
  skipConsent: boolean;
  createdAt: Date;
}

/** An authorization code (RFC 6749 §4.1.2), stored as its hash. Single use. */
export interface AuthorizationCodeRecord {
  /** SHA-256 (hex) of the code. */
  codeHash: string;
  clientId: string;
  userId: string;
  /** The `redirect_uri` of the authorization request; the token request must repeat it. */
  redirectUri: string;
  /** The PKCE S256 `code_challenge` (RFC 7636 §4.2). */
  codeChallenge: string;
  /** The request's `nonce`, echoed in the ID token; null without one. */
  nonce: string | null;
  scopes: string[];
  /** When the user signed in. */
  authTime: Date;
  /** Authentication method references (RFC 8176), e.g. `['pwd', 'otp', 'mfa']`. */
  amr: string[];
  /** Authentication context class; null when unknown. */
  acr: string | null;
  /** The grant the code's tokens belong to: a replayed code revokes it (RFC 6749 §4.1.2). */
  grantId: string;
  expiresAt: Date;
}

/** A grant: what one code exchange issued (access tokens, a refresh-token family). Revoking it ends them all. */
export interface GrantRecord {
  id: string;
  clientId: string;
  userId: string;
  scopes: string[];
  authTime: Date;
  amr: string[];
  acr: string | null;
  createdAt: Date;
  /** Set when the grant was revoked (a reused refresh token, a replayed code, RFC 7009, a withdrawn consent). */
  revokedAt: Date | null;
}

/** A refresh token, stored as its hash, in its grant's family (RFC 9700 §4.14). */
export interface RefreshTokenRecord {
  /** SHA-256 (hex) of the token. */
  tokenHash: string;
  grantId: string;
  expiresAt: Date;
  /** When it was exchanged for its successor; a rotated token presented again revokes the family. */
  rotatedAt: Date | null;
}

/** A user's consent to a client for some scopes. */
export interface ConsentRecord {
  userId: string;
  clientId: string;
  scopes: string[];
  createdAt: Date;
}

/** Where `oidcProvider()` keeps its records. Every implementation passes the conformance suite. */
export interface OidcProviderStorage {
  /** Creates or upgrades the storage (idempotent); `auth.migrate()` runs it. */
  migrate(): Promise<void>;
  /** Adds or replaces a client (by `id`). */
  putClient(client: OidcClientRecord): Promise<void>;
  getClient(id: string): Promise<OidcClientRecord | null>;
  removeClient(id: string): Promise<void>;
  putCode(code: AuthorizationCodeRecord): Promise<void>;
  /**
   * Uses the code `codeHash` up, once: `{ code, replayed: false }` the first time, `{ code, replayed: true }` on any
   * later call (the record stays until it expires, so a replay is recognised), null for an unknown code.
   */
  consumeCode(codeHash: string): Promise<{ code: AuthorizationCodeRecord; replayed: boolean } | null>;
  createGrant(grant: GrantRecord): Promise<void>;
  getGrant(id: string): Promise<GrantRecord | null>;
  /** Marks the grant revoked at `at` (an earlier revocation time is kept); nothing for an unknown grant. */
  revokeGrant(id: string, at: Date): Promise<void>;
  /** Revokes every live grant of `userId` (for `clientId` only, when given); answers how many. */
  revokeGrantsOf(userId: string, clientId: string | undefined, at: Date): Promise<number>;
  putRefreshToken(token: RefreshTokenRecord): Promise<void>;
  getRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | null>;
  /**
   * Marks the token rotated at `at`, once: true for the one caller that rotated it, false when it was rotated
   * already (a reuse) or is unknown.
   */
  rotateRefreshToken(tokenHash: string, at: Date): Promise<boolean>;
  putConsent(consent: ConsentRecord): Promise<void>;
  getConsent(userId: string, clientId: string): Promise<ConsentRecord | null>;
  listConsents(userId: string): Promise<ConsentRecord[]>;
  removeConsent(userId: string, clientId: string): Promise<boolean>;
  /** Removes codes and refresh tokens that expired before `now`. */
  prune(now: Date): Promise<void>;
}
