/**
 * Chooses the argon2 implementation once, at the first use: `@node-rs/argon2`
 * where Node addons load, hash-wasm everywhere else (workerd, browsers-like
 * runtimes). Both write and accept the same PHC strings.
 * @internal
 * @module
 */
import { loadNativeArgon2 } from './native.js';
import type { Argon2Backend } from './types.js';
import { wasmArgon2 } from './wasm.js';

let chosen: Promise<Argon2Backend> | undefined;

/** The backend of this runtime. */
export function argon2Backend(): Promise<Argon2Backend> {
  chosen ??= loadNativeArgon2().then((native) => native ?? wasmArgon2);
  return chosen;
}
