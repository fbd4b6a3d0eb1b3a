/**
 * Spent ID tokens and nonces of `oneTap()`, kept in the auth adapter's verification tokens so that every process
 * sharing the database refuses a second use.
 * @module
 * @internal
 */
import { sha256Hex, StorageConflictError, type StorageAdapter } from '../../plugin-kit.js';

/** What is spent: a Google ID token, or a nonce from `GET /one-tap/nonce`. */
export type SpentKind = 'token' | 'nonce';

/**
 * Marks `secret` used until `expires`: one verification-token row under `one-tap-<kind>` keyed by the secret's
 * SHA-256 (the secret itself is never stored). The insert is on the adapter's unique (identifier, token hash) key,
 * so of any number of concurrent calls for one secret, on any number of processes, exactly one answers true; the
 * adapter's `purgeExpired` removes the row after `expires`.
 * @returns false when the secret was spent already.
 */
export async function spendOnce(
  adapter: StorageAdapter,
  kind: SpentKind,
  secret: string,
  expires: Date,
): Promise<boolean> {
  try {
    await adapter.createVerificationToken({
      identifier: `one-tap-${kind}`,
      tokenHash: await sha256Hex(secret),
      expires,
    });
    return true;
  } catch (error) {
    if (error instanceof StorageConflictError) return false;
    throw error;
  }
}
