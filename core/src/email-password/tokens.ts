/**
 * Single-use links bound to one purpose, one user and one address. They live
 * in the adapter's verification tokens under an identifier that names the
 * purpose and the user (`password-reset:<userId>`), and the stored hash
 * covers the address and the secret, so a token made for one purpose, user or
 * address never opens another: its identifier or its hash would not match.
 * All of a user's pending links of one purpose can be withdrawn at once
 * (`withdrawLinkTokens`). Only the SHA-256 is stored; consuming is atomic
 * (`useVerificationToken`), and expired tokens are refused and purged by
 * `adapter.purgeExpired()`.
 * @internal
 * @module
 */
import type { AuthClock } from '../clock.js';
import { randomString, sha256Hex } from '../crypto.js';
import type { StorageAdapter, VerificationToken } from '../storage/types.js';

/** What a link is for. */
export type LinkPurpose = 'verify-email' | 'change-email' | 'undo-email-change' | 'password-reset';

/** The storage identifier of a user's links of one purpose. */
const identifierOf = (purpose: LinkPurpose, userId: string): string => `${purpose}:${userId}`;

/** The stored hash: the address (lower-cased) and the secret. */
const hashOf = (email: string, secret: string): Promise<string> => sha256Hex(`${email.toLowerCase()}\n${secret}`);

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
  clock: AuthClock,
): Promise<string> {
  const secret = randomString(32);
  await adapter.createVerificationToken({
    identifier: identifierOf(purpose, userId),
    tokenHash: await hashOf(email, secret),
    expires: new Date(clock.now() + ttl * 1000),
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
 * Consumes a token once: the stored token when it was issued for `purpose`,
 * this user and `email`, and has not expired; null otherwise. A token
 * presented for the wrong purpose or address is not consumed (nothing matches).
 */
export async function consumeLinkToken(
  adapter: StorageAdapter,
  purpose: LinkPurpose,
  token: string,
  email: string,
  clock: AuthClock,
): Promise<VerificationToken | null> {
  const userId = userIdOf(token);
  if (!userId) return null;
  const secret = token.slice(userId.length + 1);
  const used = await adapter.useVerificationToken({
    identifier: identifierOf(purpose, userId),
    tokenHash: await hashOf(email, secret),
  });
  return used !== null && used.expires.getTime() > clock.now() ? used : null;
}

/**
 * Withdraws a user's pending links of `purpose`: all of them, or only those expiring after `expiresAfter` (issued
 * later than a link of the same lifetime). Resolves how many were withdrawn.
 */
export function withdrawLinkTokens(
  adapter: StorageAdapter,
  purpose: LinkPurpose,
  userId: string,
  expiresAfter?: Date,
): Promise<number> {
  return adapter.deleteVerificationTokens({
    identifier: identifierOf(purpose, userId),
    ...(expiresAfter ? { expiresAfter } : {}),
  });
}
