/**
 * The user's claims by scope (OpenID Connect Core 1.0 §5.4): `openid` → `sub`; `profile` → `name`, `picture`;
 * `email` → `email`, `email_verified`.
 * @module
 * @internal
 */
import type { User } from '../../index.js';

/** The standard claims `scopes` release about `user` (`sub` included). */
export function claimsFor(user: User, scopes: readonly string[]): Record<string, unknown> {
  const claims: Record<string, unknown> = { sub: user.id };
  if (scopes.includes('profile')) {
    if (user.name) claims.name = user.name;
    if (user.image) claims.picture = user.image;
  }
  if (scopes.includes('email') && user.email) {
    claims.email = user.email;
    claims.email_verified = Boolean(user.emailVerified);
  }
  return claims;
}
