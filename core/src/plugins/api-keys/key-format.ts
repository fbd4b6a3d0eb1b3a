/**
 * The API key format: `fk_<prefix>_<secret>`, where `prefix` is 12 lower-case
 * hex characters (48 random bits, stored in clear for lookup) and `secret` is
 * 43 base64url characters (256 random bits, stored only as its SHA-256).
 * @module
 * @internal
 */
import { randomBytes, sha256Hex, timingSafeEqual, toBase64Url, toHex } from '../../crypto.js';

const KEY = /^fk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

/** A key's two parts. */
export interface ParsedKey {
  prefix: string;
  secret: string;
}

/** A fresh key with its parts. */
export function generateKey(): ParsedKey & { key: string } {
  const prefix = toHex(randomBytes(6));
  const secret = toBase64Url(randomBytes(32));
  return { key: `fk_${prefix}_${secret}`, prefix, secret };
}

/** The parts of a well-formed key, or null. */
export function parseKey(text: string): ParsedKey | null {
  const match = KEY.exec(text);
  return match ? { prefix: match[1]!, secret: match[2]! } : null;
}

/** The stored form of a secret: lower-case hex SHA-256. */
export function hashSecret(secret: string): Promise<string> {
  return sha256Hex(secret);
}

/** Whether `secret` hashes to `storedHash`, compared in constant time. */
export async function secretMatches(secret: string, storedHash: string): Promise<boolean> {
  return timingSafeEqual(await hashSecret(secret), storedHash);
}

/**
 * The key a request carries: `Authorization: Bearer <key>` (RFC 6750 §2.1)
 * or `x-api-key: <key>`, or null. A value that is not a well-formed key is
 * ignored (null), so other bearer tokens (a JWT) pass on to other plugins.
 */
export function keyFromRequest(request: Request): ParsedKey | null {
  const authorization = request.headers.get('authorization');
  const bearer = authorization && /^Bearer +(\S+)\s*$/i.exec(authorization)?.[1];
  return parseKey(bearer || (request.headers.get('x-api-key') ?? '').trim());
}
