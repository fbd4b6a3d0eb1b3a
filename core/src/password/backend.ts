/**
 * Chooses the argon2 implementation once, at the first use: `@node-rs/argon2`
 * where Node addons load, hash-wasm everywhere else (workerd, browsers-like
 * runtimes). Both write and accept the same PHC strings.
 * @internal
 * @module
 */
import { loadNativeArgon2 } from './native.js';
import type { Argon2Backend } from './types.js';

let chosen: Promise<Argon2Backend> | undefined;

/** The backend of this runtime. */
export function argon2Backend(): Promise<Argon2Backend> {
  // hash-wasm is imported only where the native addon does not load, so Node apps never parse it.
  chosen ??= loadNativeArgon2().then(async (native) => native ?? (await import('./wasm.js')).wasmArgon2);
  return chosen;
}
