/**
 * An esbuild plugin that serves `virtual:argon2-wasm`: a module importing
 * hash-wasm's argon2 and blake2b binaries as Wasm modules of the Worker
 * (workerd cannot compile Wasm from bytes at run time), with their SHA-256,
 * ready for `provideArgon2Wasm`.
 * @module
 */
import type { Plugin } from 'esbuild';
import { argon2WasmBinaries } from '../../../core/src/password/binaries.js';

/** The specifier a Worker entry imports. */
export const ARGON2_WASM_SPECIFIER = 'virtual:argon2-wasm';

/** A Wasm file to ship next to the bundle. */
export interface WasmFile {
  path: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/**
 * The plugin, and the Wasm files it refers to (fill in after the build).
 * @example
 * ```ts
 * const { plugin, files } = argon2WasmPlugin();
 * await esbuild.build({ ..., plugins: [plugin] });
 * // ship `files` as CompiledWasm modules next to the bundle
 * ```
 */
export function argon2WasmPlugin(): { plugin: Plugin; files: WasmFile[] } {
  const files: WasmFile[] = [];
  const plugin: Plugin = {
    name: 'argon2-wasm',
    setup(build) {
      build.onResolve({ filter: /^virtual:argon2-wasm$/ }, () => ({
        path: ARGON2_WASM_SPECIFIER,
        namespace: 'argon2-wasm',
      }));
      build.onResolve({ filter: /^\.\/hash-wasm-\w+\.wasm$/ }, (args) => ({ path: args.path, external: true }));
      build.onLoad({ filter: /.*/, namespace: 'argon2-wasm' }, async () => {
        const binaries = await argon2WasmBinaries();
        files.length = 0;
        const lines: string[] = [];
        const entries: string[] = [];
        for (const [name, binary] of Object.entries(binaries)) {
          files.push({ path: `hash-wasm-${name}.wasm`, bytes: binary.bytes });
          lines.push(`import ${name} from './hash-wasm-${name}.wasm';`);
          entries.push(`${name}: { module: ${name}, sha256: ${JSON.stringify(binary.sha256)} }`);
        }
        return { contents: `${lines.join('\n')}\nexport default { ${entries.join(', ')} };\n`, loader: 'js' };
      });
    },
  };
  return { plugin, files };
}
