import { defineConfig, type Options } from 'tsup';

/**
 * The build every package shares: ESM + CJS with `.d.ts`, Node 20 target,
 * and the `import.meta.url` shim for the CJS output. Code splitting is on for
 * both formats, so the entry points of one format share their modules (one
 * request scope, one set of error classes) instead of each bundling a copy.
 * No source maps: the tarballs ship `dist` only, and a map would point at
 * sources that are not there (scripts/packages/check.mjs refuses them).
 */
export function packageBuild(entry: Record<string, string>, extra: Options = {}) {
  return defineConfig({
    entry,
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    sourcemap: false,
    target: 'node20',
    shims: true,
    splitting: true,
    ...extra,
  });
}
