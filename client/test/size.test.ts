/**
 * Size budget: the browser bundle (client + nanostores, minified, as an app's
 * bundler would build it) stays under 3 kB gzip, and holds no server code.
 */
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const BUDGET_BYTES = 3 * 1024;

describe('browser bundle', () => {
  it(`is under ${BUDGET_BYTES} bytes min+gzip and contains only the client and nanostores`, async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2020',
      write: false,
      metafile: true,
      define: { 'process.env.NODE_ENV': '"production"' },
    });
    const code = result.outputFiles[0]!.contents;
    const gzipped = gzipSync(code, { level: 9 }).byteLength;
    console.info(`client bundle: ${code.byteLength} B minified, ${gzipped} B gzip (budget ${BUDGET_BYTES} B)`);
    expect(gzipped).toBeLessThan(BUDGET_BYTES);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((path) => !/(^|\/)client\/src\/|node_modules\/nanostores\//.test(path))).toEqual([]);
  });
});
