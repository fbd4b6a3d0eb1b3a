/**
 * `@framework/auth/argon2-wasm`: the WebAssembly argon2id (hash-wasm) for
 * runtimes where the native `@node-rs/argon2` addon does not load (workerd,
 * Deno or Bun without the addon). Importing `@framework/auth` never loads or
 * bundles it: an app that needs it imports this subpath and calls
 * {@link provideArgon2Wasm} once at start-up. On Node the native addon is
 * used whether or not this was called.
 * @module
 */
import { registerWasmArgon2 } from './password/backend.js';
import { installPrecompiledWasm, type Argon2WasmModules } from './password/precompiled.js';
import { wasmArgon2 } from './password/wasm.js';

export type { Argon2WasmModules, PrecompiledWasm } from './password/precompiled.js';

/**
 * Makes `hashPassword`/`verifyPassword` (and the credentials sign-in) use
 * the WebAssembly argon2id wherever the native addon does not load. Call it
 * once at module scope, before the first hash.
 *
 * `modules`: on runtimes that forbid compiling Wasm from bytes (workerd),
 * hash-wasm's `argon2` and `blake2b` binaries imported as Wasm modules of the
 * Worker, each with the SHA-256 (hex) of its bytes;
 * `runtime-tests/src/workerd/wasm.ts` extracts them at build time (see
 * `runtime-tests/README.md`). Omit it where Wasm compiles at run time.
 *
 * @param modules Precompiled modules (workerd), or nothing.
 * @throws TypeError when a provided module or its SHA-256 is missing or malformed.
 * @example
 * ```ts
 * import { provideArgon2Wasm } from '@framework/auth/argon2-wasm';
 * import argon2 from './hash-wasm-argon2.wasm';
 * import blake2b from './hash-wasm-blake2b.wasm';
 * import { ARGON2_SHA256, BLAKE2B_SHA256 } from './hash-wasm-sha256.js';
 *
 * provideArgon2Wasm({ argon2: { module: argon2, sha256: ARGON2_SHA256 }, blake2b: { module: blake2b, sha256: BLAKE2B_SHA256 } });
 * ```
 */
export function provideArgon2Wasm(modules?: Argon2WasmModules): void {
  if (modules !== undefined) installPrecompiledWasm(modules);
  registerWasmArgon2(wasmArgon2);
}
