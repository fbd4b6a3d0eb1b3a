/**
 * Backup codes: single-use recovery codes, shown once and stored only as SHA-256 hashes. Each code carries 50 bits
 * of randomness (10 characters of a 32-letter alphabet), enough that a hash cannot be brute-forced offline for a
 * user's few codes and online guessing is stopped by the attempt limits.
 * @module
 * @internal
 */
import { randomBytes, sha256Hex } from '../../plugin-kit.js';

/** Crockford-style base32 without the look-alikes I, L, O and U. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** One new code, `xxxxx-xxxxx`. */
function newCode(): string {
  const bytes = randomBytes(10);
  let out = '';
  for (const b of bytes) out += ALPHABET[b & 31];
  return `${out.slice(0, 5)}-${out.slice(5)}`;
}

/** Codes as the user may type them: case, spaces and dashes do not matter; look-alikes map to their letter. */
export function normalizeBackupCode(input: string): string {
  return input.toLowerCase().replace(/[\s-]/g, '').replace(/[il]/g, '1').replace(/o/g, '0').replace(/u/g, 'v');
}

/** The stored form of a code. */
export function hashBackupCode(code: string): Promise<string> {
  return sha256Hex(`framework.two-factor.backup-code:${normalizeBackupCode(code)}`);
}

/** `count` new codes and their hashes. */
export async function generateBackupCodes(count: number): Promise<{ codes: string[]; hashes: string[] }> {
  const codes = Array.from({ length: count }, newCode);
  return { codes, hashes: await Promise.all(codes.map(hashBackupCode)) };
}

/** A plausible code (10 alphabet characters once normalised); anything else is refused before any lookup. */
export function looksLikeBackupCode(input: string): boolean {
  return input.length <= 40 && /^[0-9a-z]{10}$/.test(normalizeBackupCode(input));
}
