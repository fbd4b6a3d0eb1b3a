/**
 * Password hashing with argon2id (RFC 9106), with the OWASP Password Storage
 * Cheat Sheet parameters: m = 19456 KiB, t = 2, p = 1. On Node the work is
 * done by `@node-rs/argon2`; where Node addons cannot load (workerd) by
 * hash-wasm's WebAssembly argon2, once the app opts in with `provideArgon2Wasm()`
 * from `@framework/auth/argon2-wasm` (so no other app bundles it). Both write
 * and verify the same PHC strings, so a hash made on one runtime verifies on
 * the other.
 * @module
 */
import { argon2Backend } from './password/backend.js';
import { ARGON2_PARAMS } from './password/types.js';

/** The argon2id parameters used by {@link hashPassword} (OWASP minimums). */
export const PASSWORD_HASH_PARAMS = ARGON2_PARAMS;

/** Passwords longer than this (in UTF-8 bytes) are refused, bounding the hashing cost. */
export const MAX_PASSWORD_BYTES = 1024;

/**
 * Hashes a password with argon2id and returns a PHC string
 * (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`) with a random 16-byte salt.
 *
 * @throws TypeError when `password` is not a string, is empty, or is longer than 1024 UTF-8 bytes.
 * @throws Error when the runtime has no native argon2 and the Wasm one was not provided (`@framework/auth/argon2-wasm`).
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
  return (await argon2Backend()).hash(password);
}

/**
 * Checks a password against a PHC hash made by {@link hashPassword}. Returns
 * false, never throws, for a wrong password, a malformed or foreign hash, or
 * non-string input. The comparison is constant-time.
 *
 * @throws Error only when the runtime cannot run argon2 at all (no native
 * addon and no `provideArgon2Wasm()` from `@framework/auth/argon2-wasm`), so a
 * misconfiguration is never mistaken for a wrong password.
 * @example
 * ```ts
 * if (!(await verifyPassword(input, user.passwordHash))) throw new InvalidCredentialsError();
 * ```
 */
export async function verifyPassword(password: string, storedHash: string): Promise<boolean> {
  if (typeof password !== 'string' || typeof storedHash !== 'string') return false;
  if (!storedHash.startsWith('$argon2')) return false;
  if (new TextEncoder().encode(password).length > MAX_PASSWORD_BYTES) return false;
  const backend = await argon2Backend();
  if (backend.name === 'wasm') return backend.verify(storedHash, password);
  try {
    return await backend.verify(storedHash, password);
  } catch {
    return false;
  }
}

/**
 * Which argon2 implementation this runtime uses: `native` (@node-rs/argon2)
 * or `wasm` (hash-wasm). Chosen once, at the first call.
 *
 * @example
 * ```ts
 * console.log(await passwordHasherName()); // 'native' on Node, 'wasm' on workerd
 * ```
 */
export async function passwordHasherName(): Promise<'native' | 'wasm'> {
  return (await argon2Backend()).name;
}
