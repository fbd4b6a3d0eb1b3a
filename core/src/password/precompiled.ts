/**
 * Precompiled WebAssembly for runtimes that forbid compiling it from bytes.
 * workerd (Cloudflare Workers) refuses `WebAssembly.compile(bytes)`: Wasm
 * must arrive as a module of the Worker (`import mod from './x.wasm'`).
 * hash-wasm compiles its embedded binaries with `WebAssembly.compile`, so
 * once modules are provided here, that call is answered with the provided
 * module whose SHA-256 matches the bytes; any other bytes go to the original.
 * @module
 */

/** A compiled module and the SHA-256 (hex) of the bytes it was compiled from. */
export interface PrecompiledWasm {
  module: WebAssembly.Module;
  sha256: string;
}

/** hash-wasm's two binaries that argon2 needs. */
export interface Argon2WasmModules {
  argon2: PrecompiledWasm;
  blake2b: PrecompiledWasm;
}

const provided = new Map<string, WebAssembly.Module>();
let hooked = false;

async function sha256Hex(bytes: BufferSource): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Hands argon2's WebAssembly to the kit in runtimes where Wasm cannot be
 * compiled at run time (workerd). Call it once at module scope of your
 * Worker, before the first `hashPassword`/`verifyPassword` (hash-wasm keeps
 * a failed compile for the life of the isolate). Node does not need it (it
 * uses `@node-rs/argon2`).
 *
 * The modules are hash-wasm's `argon2` and `blake2b` binaries, imported as
 * Wasm modules of the Worker; `runtime-tests/src/workerd/wasm.ts` extracts
 * them and their SHA-256 at build time (see `runtime-tests/README.md`).
 *
 * @throws TypeError when a module or its SHA-256 is missing.
 * @example
 * ```ts
 * import argon2 from './hash-wasm-argon2.wasm';
 * import blake2b from './hash-wasm-blake2b.wasm';
 * import { ARGON2_SHA256, BLAKE2B_SHA256 } from './hash-wasm-sha256.js';
 *
 * provideArgon2Wasm({ argon2: { module: argon2, sha256: ARGON2_SHA256 }, blake2b: { module: blake2b, sha256: BLAKE2B_SHA256 } });
 * ```
 */
export function provideArgon2Wasm(modules: Argon2WasmModules): void {
  for (const [name, entry] of Object.entries(modules) as [string, PrecompiledWasm | undefined][]) {
    if (!(entry?.module instanceof WebAssembly.Module) || !/^[0-9a-f]{64}$/i.test(entry.sha256 ?? '')) {
      throw new TypeError(`provideArgon2Wasm: ${name} needs {module: WebAssembly.Module, sha256: <64 hex>}`);
    }
    provided.set(entry.sha256.toLowerCase(), entry.module);
  }
  if (hooked) return;
  hooked = true;
  const compile = WebAssembly.compile.bind(WebAssembly);
  WebAssembly.compile = async (bytes: BufferSource) => provided.get(await sha256Hex(bytes)) ?? compile(bytes);
}
