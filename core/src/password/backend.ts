/**
 * Chooses the argon2 implementation once, at the first use: `@node-rs/argon2`
 * where Node addons load; elsewhere (workerd, Deno or Bun without the addon)
 * the WebAssembly one, but only once the app registered it through
 * `@framework/auth/argon2-wasm`, so an app that does not ask for it never
 * bundles hash-wasm. Both write and accept the same PHC strings.
 * @internal
 * @module
 */
import { loadNativeArgon2 } from './native.js';
import type { Argon2Backend } from './types.js';

let chosen: Promise<Argon2Backend> | undefined;
let wasm: Argon2Backend | undefined;

/** Registers the WebAssembly backend, used where the native addon does not load. */
export function registerWasmArgon2(backend: Argon2Backend): void {
  wasm = backend;
}

/**
 * The backend of this runtime.
 * @throws Error when the native addon does not load here and no Wasm backend was registered (the choice is
 * made again at the next call, so registering later still works).
 */
export function argon2Backend(): Promise<Argon2Backend> {
  chosen ??= loadNativeArgon2().then((native) => {
    const backend = native ?? wasm;
    if (backend) return backend;
    chosen = undefined;
    throw new Error(
      "argon2: the native addon (@node-rs/argon2) does not load on this runtime; use the WebAssembly one: import { provideArgon2Wasm } from '@framework/auth/argon2-wasm' and call provideArgon2Wasm() once at start-up (on workerd, with the precompiled modules)",
    );
  });
  return chosen;
}
