/**
 * What an app bundles for `{ createAuth, credentials }`: one file (esbuild, no code splitting, so code behind a
 * dynamic `import()` counts too), jose and oauth4webapi external as an app's own dependencies. The in-memory rate
 * limiter, the native argon2 and the JWT sessions must not drag in `@upstash/*`, hash-wasm or Kysely (they load
 * only from `@framework/auth/rate-limit/upstash`, `@framework/auth/argon2-wasm` and the SQL adapters), and the
 * optional drivers (`pg`, `mysql2`, `better-sqlite3`) must not be needed to bundle it.
 */
import { build, type Plugin } from 'esbuild';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const OPTIONAL_DRIVERS = /^(pg|mysql2|better-sqlite3)(\/.*)?$/;

/** Makes the optional drivers unresolvable, as in an app that did not install them. */
const missingDrivers: Plugin = {
  name: 'missing-drivers',
  setup(b) {
    b.onResolve({ filter: OPTIONAL_DRIVERS }, (args) => ({
      errors: [{ text: `"${args.path}" is not installed (imported by ${args.importer})` }],
    }));
  },
};

/** Leaves out, and adds to `left`, every package reached by a bare dynamic `import()`, as the workerd bundles do. */
const bareDynamicImportsOut = (left: Set<string>): Plugin => ({
  name: 'bare-dynamic-imports-out',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      left.add(args.path);
      return { path: args.path, external: true };
    });
  },
});

/** A single-file bundle of `code`, resolved from core/src: its packages (by node_modules name) and gzip size. */
async function bundled(code: string, extra: Plugin[] = []): Promise<{ packages: Set<string>; gzipBytes: number }> {
  const result = await build({
    stdin: { contents: code, resolveDir: here, loader: 'ts' },
    bundle: true,
    splitting: false,
    write: false,
    minify: true,
    metafile: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['@framework/source'],
    external: ['jose', 'oauth4webapi'],
    plugins: [missingDrivers, ...extra],
    logLevel: 'silent',
  });
  const packages = new Set<string>();
  // The output's inputs, not the metafile's: esbuild parses (and lists) modules that tree-shaking then drops.
  for (const output of Object.values(result.metafile.outputs))
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (match && bytesInOutput > 0) packages.add(match[1]!);
    }
  return { packages, gzipBytes: gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length };
}

/** The packages with code in a single-file bundle of `code`. */
const bundledPackages = async (code: string) => (await bundled(code)).packages;

describe('single-file bundle of the core', () => {
  it('{ createAuth, credentials } inlines no Upstash, Wasm argon2, Kysely or SQL driver', async () => {
    const { packages, gzipBytes } = await bundled("export { createAuth, credentials } from './index.ts';");
    // The size is a figure for the reader (goal 60 KB, checked by `npm run size -w @framework/bench`), not a bound.
    console.log(`{ createAuth, credentials }, one file, minified: ${(gzipBytes / 1024).toFixed(1)} KB gzip`);
    expect(packages.size).toBeGreaterThan(0); // the scan sees packages at all (cookie, ...)
    for (const heavy of [
      '@upstash/redis',
      '@upstash/ratelimit',
      'hash-wasm',
      'kysely',
      'pg',
      'mysql2',
      'better-sqlite3',
    ])
      expect(packages, heavy).not.toContain(heavy);
  });

  it('{ createAuth } bundles without pg, mysql2 or better-sqlite3 installed', async () => {
    await expect(bundledPackages("export { createAuth } from './index.ts';")).resolves.toBeInstanceOf(Set);
  });

  it('the SQL adapters reach Kysely by relative imports only (workerd bundles leave bare dynamic imports out)', async () => {
    const left = new Set<string>();
    const code =
      "export { createSqliteAdapter, createPostgresAdapter, createMysqlAdapter, createD1Adapter } from './index.ts';";
    const { packages } = await bundled(code, [bareDynamicImportsOut(left)]);
    expect(packages).toContain('kysely');
    expect(left.size).toBeGreaterThan(0); // the plugin sees bare dynamic imports (passkeys' @simplewebauthn/server)
    expect(left).not.toContain('kysely');
  });

  it('the Upstash and Wasm subpaths do carry their libraries (the scan sees them)', async () => {
    const upstash = await bundledPackages("export { createFixedWindowStorage } from './rate-limit-upstash.ts';");
    expect(upstash).toContain('@upstash/ratelimit');
    expect(upstash).toContain('@upstash/redis');
    expect(await bundledPackages("export { provideArgon2Wasm } from './argon2-wasm.ts';")).toContain('hash-wasm');
  });
});
