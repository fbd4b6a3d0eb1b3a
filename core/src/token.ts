import { randomBytes, toHex } from './crypto.js';

/**
 * Returns `length` cryptographically random bytes, hex-encoded (so the string
 * is `2 × length` characters long).
 *
 * @param length - number of random bytes; a positive integer, default 32 (→ 64 hex characters), at most 65536.
 * @throws RangeError when `length` is not a positive integer or exceeds 65536.
 * @example
 * ```ts
 * const apiKey = await generateToken();     // 64 hex characters
 * const short = await generateToken(8);     // 16 hex characters
 * ```
 */
export async function generateToken(length = 32): Promise<string> {
  if (typeof length !== 'number' || !Number.isInteger(length) || length <= 0 || length > 65536) {
    throw new RangeError(`generateToken: length must be an integer from 1 to 65536 (bytes), got ${String(length)}`);
  }
  return toHex(randomBytes(length));
}
