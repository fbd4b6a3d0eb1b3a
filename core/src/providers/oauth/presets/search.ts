/**
 * `search`: a Google-style OpenID Connect provider
 * (https://developers.google.com/identity/openid-connect/openid-connect),
 * configured by discovery from `https://accounts.google.com`.
 * @module
 */
import type { Profile } from '../../../types.js';
import { oauthProvider } from '../create.js';
import type { OAuthProvider } from '../types.js';

export interface SearchOptions {
  /** Provider id in `/signin/:id` and the stored accounts. Default `search` (`google()` defaults to `google`). */
  id?: string;
  clientId: string;
  clientSecret: string;
  /** Default `openid email profile`. */
  scope?: string;
  /** Issuer override (tests, other OIDC hosts). Default `https://accounts.google.com`. */
  issuer?: string;
  /** Link to an existing user by a verified email. Default false. */
  trustEmail?: boolean;
}

/** Maps Google's ID token claims to a user profile. */
export function searchProfile(claims: Profile) {
  return {
    id: String(claims.sub),
    email: (claims.email as string | undefined) ?? null,
    name: (claims.name as string | undefined) ?? null,
    image: (claims.picture as string | undefined) ?? null,
    emailVerified: claims.email_verified === true || claims.email_verified === 'true' ? new Date() : null,
  };
}

/**
 * Google-style OIDC sign-in: discovery, nonce, ID token validation against
 * the issuer's JWKS; the profile comes from the ID token claims.
 * @example
 * ```ts
 * search({ clientId: process.env.GOOGLE_ID!, clientSecret: process.env.GOOGLE_SECRET! })
 * ```
 */
export function search(options: SearchOptions): OAuthProvider {
  return oauthProvider({
    id: options?.id ?? 'search',
    name: 'Google',
    type: 'oidc',
    clientId: options?.clientId,
    clientSecret: options?.clientSecret,
    issuer: options?.issuer ?? 'https://accounts.google.com',
    endpoints: {},
    scope: options?.scope ?? 'openid email profile',
    trustEmail: options?.trustEmail ?? false,
    profile: searchProfile,
  });
}

/** Options of {@link google}: those of {@link search}. */
export type GoogleOptions = SearchOptions;

/**
 * Google sign-in under its real name: {@link search} with the default id `google`.
 * @example
 * ```ts
 * google({ clientId: process.env.GOOGLE_ID!, clientSecret: process.env.GOOGLE_SECRET! })
 * ```
 */
export function google(options: GoogleOptions): OAuthProvider {
  return search({ ...options, id: options?.id ?? 'google' });
}
