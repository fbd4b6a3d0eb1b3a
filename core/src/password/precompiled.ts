/**
 * Precompiled WebAssembly for runtimes that forbid compiling it from bytes.
 * workerd (Cloudflare Workers) refuses `WebAssembly.compile(bytes)`: Wasm
 * must arrive as a module of the Worker (`import mod from './x.wasm'`).
 * hash-wasm compiles its embedded binaries with `WebAssembly.compile`, so
 * once modules are provided here, that call is answered with the provided
 * module whose SHA-256 matches the bytes; any other bytes go to the original.
 * @internal
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
 * Installs precompiled modules: `WebAssembly.compile` answers bytes whose SHA-256 matches one of them with it.
 * The public entry is `provideArgon2Wasm` of `@framework/auth/argon2-wasm`.
 * @throws TypeError when a module or its SHA-256 is missing.
 */
export function installPrecompiledWasm(modules: Argon2WasmModules): void {
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
