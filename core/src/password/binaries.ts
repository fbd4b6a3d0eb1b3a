/**
 * Build-time helper (Node only; never imported by the kit at run time): the
 * WebAssembly binaries hash-wasm embeds for argon2, as bytes with their
 * SHA-256, so a Worker build can ship them as Wasm modules and hand them to
 * `provideArgon2Wasm` (./precompiled.ts).
 * @module
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** One extracted binary. */
export interface WasmBinary {
  bytes: Uint8Array<ArrayBuffer>;
  sha256: string;
}

/** The two binaries argon2 needs, by hash-wasm's names for them. */
export type Argon2WasmBinaries = Record<'argon2' | 'blake2b', WasmBinary>;

/** hash-wasm's ESM build declares each binary as `var name$x = "…"; var data$x = "<base64>";`. */
const EMBEDDED = /var name\$(\w+) = "(argon2|blake2b)";\s*var data\$\1 = "([A-Za-z0-9+/=]+)";/g;

/**
 * Reads hash-wasm's `argon2` and `blake2b` binaries out of its installed ESM
 * build (resolved from this package).
 *
 * @throws Error when hash-wasm is missing or its layout changed.
 * @example
 * ```ts
 * const { argon2, blake2b } = await argon2WasmBinaries();
 * await writeFile('dist/hash-wasm-argon2.wasm', argon2.bytes);
 * ```
 */
export async function argon2WasmBinaries(): Promise<Argon2WasmBinaries> {
  const require = createRequire(import.meta.url);
  const source = await readFile(join(dirname(require.resolve('hash-wasm/package.json')), 'dist/index.esm.js'), 'utf8');
  const found: Partial<Argon2WasmBinaries> = {};
  for (const [, , name, data] of source.matchAll(EMBEDDED)) {
    const bytes = new Uint8Array(Buffer.from(data!, 'base64'));
    found[name as 'argon2' | 'blake2b'] = { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
  }
  if (!found.argon2 || !found.blake2b)
    throw new Error('argon2WasmBinaries: hash-wasm/dist/index.esm.js no longer embeds argon2 and blake2b as expected');
  return found as Argon2WasmBinaries;
}
