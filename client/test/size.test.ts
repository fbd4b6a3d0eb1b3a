/**
 * Size budget: the browser bundle (client + nanostores, minified, as an app's
 * bundler would build it) stays under 3 kB gzip, and holds no server code and
 * no UI framework; each framework binding pulls in only its own framework.
 */
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const BUDGET_BYTES = 3 * 1024;
const FRAMEWORKS = ['react', 'preact', 'vue', 'svelte', 'solid'] as const;
/** The npm packages of each binding (its framework and its nanostores integration). */
const PACKAGES: Record<(typeof FRAMEWORKS)[number], RegExp> = {
  react: /node_modules\/(react|react-dom|scheduler|@nanostores\/react)\//,
  preact: /node_modules\/(preact|@nanostores\/preact)\//,
  vue: /node_modules\/(vue|@vue\/[^/]+|@nanostores\/vue)\//,
  svelte: /node_modules\/svelte\//,
  solid: /node_modules\/(solid-js|@nanostores\/solid)\//,
};

async function bundle(entry: string, external: string[] = []) {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`../src/${entry}.ts`, import.meta.url))],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    write: false,
    metafile: true,
    conditions: ['@framework/source'],
    define: { 'process.env.NODE_ENV': '"production"' },
    external,
  });
  return { code: result.outputFiles[0]!.contents, inputs: Object.keys(result.metafile.inputs) };
}

describe('browser bundle', () => {
  it(`is under ${BUDGET_BYTES} bytes min+gzip and contains only the client and nanostores`, async () => {
    const { code, inputs } = await bundle('index');
    const gzipped = gzipSync(code, { level: 9 }).byteLength;
    console.info(`client bundle: ${code.byteLength} B minified, ${gzipped} B gzip (budget ${BUDGET_BYTES} B)`);
    expect(gzipped).toBeLessThan(BUDGET_BYTES);
    expect(inputs.filter((path) => !/(^|\/)client\/src\/|node_modules\/nanostores\//.test(path))).toEqual([]);
  });

  it('holds none of the framework bindings nor their frameworks', async () => {
    const { code, inputs } = await bundle('index');
    const bindings = new RegExp(`client/src/(${FRAMEWORKS.join('|')}|default-store)\\.ts$`);
    expect(inputs.filter((path) => bindings.test(path) || Object.values(PACKAGES).some((p) => p.test(path)))).toEqual(
      [],
    );
    expect(new TextDecoder().decode(code)).not.toMatch(/useSyncExternalStore|shallowRef|createSignal/);
  });

  for (const framework of FRAMEWORKS) {
    it(`the ${framework} binding pulls in no other framework`, async () => {
      const { inputs } = await bundle(framework);
      const others = FRAMEWORKS.filter((f) => f !== framework).map((f) => PACKAGES[f]);
      expect(inputs.filter((path) => others.some((p) => p.test(path)))).toEqual([]);
      expect(inputs.some((path) => path.endsWith(`client/src/${framework}.ts`))).toBe(true);
    });

    it(`the ${framework} binding reaches the client only through the package name (one copy per page)`, async () => {
      const { inputs } = await bundle(framework, ['@framework/auth-client']);
      const client = inputs
        .filter((path) => /client\/src\//.test(path))
        .map((path) => path.replace(/^.*client\/src\//, ''));
      expect(client.sort()).toEqual(['default-store.ts', `${framework}.ts`].sort());
    });
  }
});
