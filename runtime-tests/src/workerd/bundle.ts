/**
 * Bundles a Worker entry for workerd with esbuild: browser/worker export
 * conditions, Node built-ins left to `nodejs_compat`, Node-only optional
 * packages (dynamic imports) left out, and argon2's Wasm shipped as separate modules.
 * @module
 */
import { build, type Plugin } from 'esbuild';
import { argon2WasmPlugin } from './wasm-plugin.js';

/** A module of the Worker, in the shape Miniflare's `modules` option takes. */
export type WorkerModule =
  | { type: 'ESModule'; path: string; contents: string }
  | { type: 'CompiledWasm'; path: string; contents: Uint8Array<ArrayBuffer> };

/** The compatibility settings the kit needs in workerd. */
export const WORKERD_COMPAT: { compatibilityDate: string; compatibilityFlags: string[] } = {
  compatibilityDate: '2024-09-23',
  compatibilityFlags: ['nodejs_compat'],
};

/**
 * Packages the kit loads on demand (a dynamic `import()`) that a Worker needs: jose (JWT sessions, sealed
 * cookies), oauth4webapi (the OAuth flow) and the OpenTelemetry API. They are bundled, as a Worker's bundler
 * (wrangler's esbuild) bundles them.
 */
const LAZY_FOR_WORKERS = ['jose', 'oauth4webapi', '@opentelemetry/api'];

/** Whether `specifier` is one of {@link LAZY_FOR_WORKERS} or a subpath of one. */
const lazyForWorkers = (specifier: string) =>
  LAZY_FOR_WORKERS.some((name) => specifier === name || specifier.startsWith(`${name}/`));

/**
 * The kit reaches its Node-only optional packages (better-sqlite3, pg,
 * node-redis, BullMQ, jiti, the SMTP parser, native argon2) only through
 * dynamic `import()`, on paths a Worker never takes. Those imports stay out
 * of the bundle (in workerd they would reject), whatever the package, but for
 * the ones a Worker needs ({@link LAZY_FOR_WORKERS}); static imports are always
 * bundled, so nothing a Worker needs can be left out.
 */
const nodeOnlyDynamicImports: Plugin = {
  name: 'node-only-dynamic-imports',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind === 'dynamic-import' && !args.path.startsWith('@framework/') && !lazyForWorkers(args.path)
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};

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
    conditions: ['@framework/source', 'workerd', 'worker', 'browser'],
    external: ['node:*'],
    plugins: [wasm.plugin, nodeOnlyDynamicImports],
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error(`bundleWorker: esbuild produced nothing for ${entry}`);
  return [
    { type: 'ESModule', path: 'worker.js', contents: output.text },
    ...wasm.files.map((file) => ({ type: 'CompiledWasm' as const, path: file.path, contents: file.bytes })),
  ];
}
