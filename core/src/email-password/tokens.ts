/**
 * Single-use links bound to one purpose and one user. They live in the
 * adapter's verification tokens, keyed by an identifier that names the
 * purpose, the user and the address (`password-reset:<userId>:<email>`), so
 * a token made for one purpose or user never opens another: its identifier
 * would not match. Only the SHA-256 of the secret is stored; consuming is
 * atomic (`useVerificationToken`), and expired tokens are refused and purged
 * by `adapter.purgeExpired()`.
 * @internal
 * @module
 */
import { randomString, sha256Hex } from '../crypto.js';
import type { StorageAdapter } from '../storage/types.js';

/** What a link is for. */
export type LinkPurpose = 'verify-email' | 'change-email' | 'undo-email-change' | 'password-reset';

/** The storage identifier of a link: purpose, user and address, lower-cased. */
function identifierOf(purpose: LinkPurpose, userId: string, email: string): string {
  return `${purpose}:${userId}:${email.toLowerCase()}`;
}

/**
 * Creates a link token for `purpose`, valid `ttl` seconds. The returned
 * token is `<userId>.<secret>`: the user id tells which stored row to
 * consume; the secret is what is hashed.
 */
export async function issueLinkToken(
  adapter: StorageAdapter,
  purpose: LinkPurpose,
  userId: string,
  email: string,
  ttl: number,
): Promise<string> {
  const secret = randomString(32);
  await adapter.createVerificationToken({
    identifier: identifierOf(purpose, userId, email),
    tokenHash: await sha256Hex(secret),
    expires: new Date(Date.now() + ttl * 1000),
  });
  return `${userId}.${secret}`;
}

/** The user id a token names, or null for a malformed token. */
export function userIdOf(token: unknown): string | null {
  if (typeof token !== 'string' || token.length > 512) return null;
  const dot = token.lastIndexOf('.');
  return dot > 0 && dot < token.length - 1 ? token.slice(0, dot) : null;
}

/**
 * Consumes a token once: true when it was issued for `purpose`, this user and
 * `email`, and has not expired. A token presented for the wrong purpose or
 * address is not consumed (nothing matches).
 */
export async function consumeLinkToken(
  adapter: StorageAdapter,
  purpose: LinkPurpose,
  token: string,
  email: string,
): Promise<boolean> {
  const userId = userIdOf(token);
  if (!userId) return false;
  const secret = token.slice(userId.length + 1);
  const used = await adapter.useVerificationToken({
    identifier: identifierOf(purpose, userId, email),
    tokenHash: await sha256Hex(secret),
  });
  return used !== null && used.expires.getTime() > Date.now();
}
