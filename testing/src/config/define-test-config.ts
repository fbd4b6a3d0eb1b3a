/**
 * `defineTestConfig`: a vitest config for testing the app on Node or as on
 * an edge runtime.
 * @module
 */
import type { ViteUserConfig } from 'vitest/config';
import { edgeGuard } from './edge-guard.js';

/** Options of {@link defineTestConfig}. */
export interface TestConfigOptions {
  /** `node`: Node's globals and modules. `edge`: vitest's `edge-runtime` environment plus the Node built-in guard. */
  environment: 'node' | 'edge';
  /** Test files. Default: vitest's. */
  include?: string[];
  /**
   * `edge` only: Node built-ins your edge runtime provides (e.g. `['async_hooks']`), and path fragments
   * allowed to import any.
   */
  edge?: { allowBuiltins?: string[]; trusted?: string[] };
  /** More vitest `test` options, merged in. */
  test?: NonNullable<ViteUserConfig['test']>;
}

/** Used where `process.getBuiltinModule` is missing (Node < 20.16). */
const FALLBACK_BUILTINS = [
  'assert',
  'async_hooks',
  'buffer',
  'child_process',
  'cluster',
  'crypto',
  'dgram',
  'diagnostics_channel',
  'dns',
  'events',
  'fs',
  'http',
  'http2',
  'https',
  'inspector',
  'module',
  'net',
  'os',
  'path',
  'perf_hooks',
  'process',
  'querystring',
  'readline',
  'repl',
  'stream',
  'string_decoder',
  'timers',
  'tls',
  'tty',
  'url',
  'util',
  'v8',
  'vm',
  'worker_threads',
  'zlib',
];

function nodeBuiltins(): readonly string[] {
  const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  const mod = get?.('node:module') as { builtinModules?: readonly string[] } | undefined;
  return mod?.builtinModules ?? FALLBACK_BUILTINS;
}

/**
 * A vitest config. With `environment: 'edge'` tests run in vitest's
 * `edge-runtime` environment (the globals of an edge runtime: Web `fetch`,
 * `Request`, `crypto.subtle`, …), and the app's own files may not import
 * Node built-ins: such an import fails the test file, as it would fail on
 * the edge. Dependencies under `node_modules` may. Needs `@edge-runtime/vm`.
 *
 * @example
 * ```ts
 * // vitest.config.ts
 * import { defineTestConfig } from '@framework/testing';
 * export default defineTestConfig({ environment: 'edge', edge: { allowBuiltins: ['async_hooks'] } });
 * ```
 */
export function defineTestConfig(options: TestConfigOptions): ViteUserConfig {
  if (options?.environment !== 'node' && options?.environment !== 'edge') {
    throw new TypeError(
      `defineTestConfig: environment must be 'node' or 'edge', got ${JSON.stringify(options?.environment)}`,
    );
  }
  const edge = options.environment === 'edge';
  const test: NonNullable<ViteUserConfig['test']> = { ...options.test, environment: edge ? 'edge-runtime' : 'node' };
  if (options.include) test.include = options.include;
  if (!edge) return { test };
  const guard = edgeGuard({
    builtins: nodeBuiltins(),
    ...(options.edge?.allowBuiltins ? { allow: options.edge.allowBuiltins } : {}),
    ...(options.edge?.trusted ? { trusted: options.edge.trusted } : {}),
  });
  return { plugins: [guard], test };
}
