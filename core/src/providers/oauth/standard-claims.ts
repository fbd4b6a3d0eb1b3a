/**
 * Profile mapping helpers for standard OpenID Connect claims (OpenID Connect
 * Core 1.0 §5.1).
 * @module
 */
import type { Profile } from '../../types.js';
import type { UserProfile } from './types.js';

/** A non-empty string field, else null. */
export function str(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 ? v : null;
}

/** Whether a provider's verified flag is set (booleans, and the string `"true"` some providers send). */
export function isTrue(v: unknown): boolean {
  return v === true || v === 'true';
}

/**
 * Maps standard OIDC claims (OpenID Connect Core §5.1) to a user profile:
 * `sub`, `email` + `email_verified`, `name` (else `preferred_username`,
 * `nickname`), `picture`. The default mapping of OIDC presets and of
 * `createOAuth2Provider({ issuer })` without `profile`.
 * @example
 * ```ts
 * standardClaimsProfile({ sub: '42', email: 'a@example.com', email_verified: true }) // {id: '42', email: 'a@example.com', emailVerified: Date, ...}
 * ```
 */
export function standardClaimsProfile(claims: Profile): UserProfile {
  const email = str(claims.email);
  return {
    id: String(claims.sub),
    email,
    name: str(claims.name) ?? str(claims.preferred_username) ?? str(claims.nickname),
    image: str(claims.picture),
    emailVerified: email && isTrue(claims.email_verified) ? new Date() : null,
  };
}
