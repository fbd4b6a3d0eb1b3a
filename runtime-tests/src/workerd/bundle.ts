/**
 * Bundles a Worker entry for workerd with esbuild: browser/worker export
 * conditions, Node built-ins left to `nodejs_compat`, Node-only optional
 * packages left out, and argon2's Wasm shipped as separate modules.
 * @module
 */
import { build } from 'esbuild';
import { argon2WasmPlugin } from './wasm-plugin.js';

/** A module of the Worker, in the shape Miniflare's `modules` option takes. */
export type WorkerModule =
  | { type: 'ESModule'; path: string; contents: string }
  | { type: 'CompiledWasm'; path: string; contents: Uint8Array };

/** The compatibility settings the kit needs in workerd. */
export const WORKERD_COMPAT = Object.freeze({ compatibilityDate: '2024-09-23', compatibilityFlags: ['nodejs_compat'] as string[] });

/**
 * Packages that only load on Node, each behind a dynamic import that a Worker
 * never reaches (the better-sqlite3 and pg adapters, the BullMQ engine and
 * node-redis clients, the triggers directory loader, native argon2). Left out
 * of the bundle; importing them in workerd rejects.
 */
const NODE_ONLY = ['better-sqlite3', 'pg', 'jiti', 'bullmq', 'redis', '@node-rs/argon2'];

/**
 * Bundles `entry` into the modules of a Worker.
 * @throws esbuild's error when the entry does not build.
 * @example
 * ```ts
 * const modules = await bundleWorker('runtime-tests/src/workerd/entry.ts');
 * const mf = new Miniflare({ modules, ...WORKERD_COMPAT });
 * ```
 */
export async function bundleWorker(entry: string): Promise<WorkerModule[]> {
  const wasm = argon2WasmPlugin();
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['browser', 'module', 'main'],
    conditions: ['source', 'workerd', 'worker', 'browser'],
    external: ['node:*', ...NODE_ONLY],
    plugins: [wasm.plugin],
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error(`bundleWorker: esbuild produced nothing for ${entry}`);
  return [
    { type: 'ESModule', path: 'worker.js', contents: output.text },
    ...wasm.files.map((file) => ({ type: 'CompiledWasm' as const, path: file.path, contents: file.bytes })),
  ];
}
