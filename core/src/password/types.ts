/**
 * What an argon2 implementation provides to `hashPassword`/`verifyPassword`.
 * @internal
 * @module
 */

/** The argon2id parameters (OWASP Password Storage Cheat Sheet minimums). */
export const ARGON2_PARAMS = /* @__PURE__ */ Object.freeze({ memoryCost: 19456, timeCost: 2, parallelism: 1 });

/** One argon2 implementation. Both produce and accept the same PHC strings. */
export interface Argon2Backend {
  /** `native` (@node-rs/argon2) or `wasm` (hash-wasm). */
  readonly name: 'native' | 'wasm';
  /** A PHC string `$argon2id$v=19$m=19456,t=2,p=1$salt$hash` with a random 16-byte salt. */
  hash(password: string): Promise<string>;
  /** Whether `password` matches `phc`; rejects only when the implementation itself cannot run. */
  verify(phc: string, password: string): Promise<boolean>;
}
