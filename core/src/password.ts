/**
 * Password hashing with argon2id (RFC 9106) through `@node-rs/argon2`, with
 * the OWASP Password Storage Cheat Sheet parameters: m = 19456 KiB, t = 2, p = 1.
 * @module
 */
import { hash, verify } from '@node-rs/argon2';

/** `Algorithm.Argon2id` of @node-rs/argon2 (a const enum, so not importable under isolatedModules). */
const ARGON2ID = 2;

/** The argon2id parameters used by {@link hashPassword} (OWASP minimums). */
export const PASSWORD_HASH_PARAMS = Object.freeze({ memoryCost: 19456, timeCost: 2, parallelism: 1 });

/** Passwords longer than this (in UTF-8 bytes) are refused, bounding the hashing cost. */
export const MAX_PASSWORD_BYTES = 1024;

/**
 * Hashes a password with argon2id and returns a PHC string
 * (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`) with a random 16-byte salt.
 *
 * @throws TypeError when `password` is not a string, is empty, or is longer than 1024 UTF-8 bytes.
 * @example
 * ```ts
 * const stored = await hashPassword('correct horse battery staple');
 * await verifyPassword('correct horse battery staple', stored); // true
 * ```
 */
export async function hashPassword(password: string): Promise<string> {
  if (typeof password !== 'string' || password.length === 0) {
    throw new TypeError('hashPassword: password must be a non-empty string');
  }
  if (new TextEncoder().encode(password).length > MAX_PASSWORD_BYTES) {
    throw new TypeError(`hashPassword: password must be at most ${MAX_PASSWORD_BYTES} bytes`);
  }
  return hash(password, { algorithm: ARGON2ID, ...PASSWORD_HASH_PARAMS });
}

/**
 * Checks a password against a PHC hash made by {@link hashPassword}. Returns
 * false, never throws, for a wrong password, a malformed or foreign hash, or
 * non-string input. The comparison is constant-time (inside argon2).
 *
 * @example
 * ```ts
 * if (!(await verifyPassword(input, user.passwordHash))) throw new InvalidCredentialsError();
 * ```
 */
export async function verifyPassword(password: string, storedHash: string): Promise<boolean> {
  if (typeof password !== 'string' || typeof storedHash !== 'string') return false;
  if (!storedHash.startsWith('$argon2')) return false;
  if (new TextEncoder().encode(password).length > MAX_PASSWORD_BYTES) return false;
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
