/**
 * The Edge entry's import graph, as a bundler sees it under the Edge runtime's conditions: no `node:` built-in, no
 * Node-only package (better-sqlite3, the engine), so `middleware.ts` builds for the Edge runtime.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('./index.ts', import.meta.url));

describe('@framework/next/middleware', () => {
  it('reaches no node: built-in, no @framework/auth and no better-sqlite3', async () => {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'neutral',
      conditions: ['@framework/source', 'edge-light', 'worker', 'browser', 'import', 'default'],
      mainFields: ['module', 'main'],
      // Next.js provides these on the Edge runtime; everything else is bundled and so inspected.
      external: ['next', 'next/*'],
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    const imports = Object.values(result.metafile.inputs).flatMap((input) => input.imports.map((i) => i.path));
    expect(inputs.some((path) => path.includes('node_modules/jose/'))).toBe(true);
    expect(imports.filter((path) => path.startsWith('node:') || /^(fs|path|crypto|async_hooks)$/.test(path))).toEqual(
      [],
    );
    expect(inputs.filter((path) => /better-sqlite3|core\/src|@framework\/auth/.test(path))).toEqual([]);
  });
});
