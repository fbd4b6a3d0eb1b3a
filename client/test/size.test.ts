/**
 * Size budget: the browser bundle (client + nanostores, minified, as an app's
 * bundler would build it) stays under 3.25 kB gzip, and holds no server code and
 * no UI framework; each framework binding pulls in only its own framework.
 * The bundle is split as bundlers split an app: what a dynamic `import()`
 * loads (`@simplewebauthn/browser`, on the first passkey ceremony) is a chunk
 * of its own, outside what the page loads up front.
 */
import { gzipSync } from 'node:zlib';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

// 3 kB until 0.1.0's createAuthClient carried the account actions and `actions()` (binding plugin client modules).
const BUDGET_BYTES = 3.25 * 1024;
const FRAMEWORKS = ['react', 'preact', 'vue', 'svelte', 'solid'] as const;
/** The npm packages of each binding (its framework and its nanostores integration). */
const PACKAGES: Record<(typeof FRAMEWORKS)[number], RegExp> = {
  react: /node_modules\/(react|react-dom|scheduler|@nanostores\/react)\//,
  preact: /node_modules\/(preact|@nanostores\/preact)\//,
  vue: /node_modules\/(vue|@vue\/[^/]+|@nanostores\/vue)\//,
  svelte: /node_modules\/svelte\//,
  solid: /node_modules\/(solid-js|@nanostores\/solid)\//,
};

/**
 * Builds `entry` with code splitting. `code` and `inputs` are what the page loads up front (the entry chunk and the
 * chunks it imports statically); `lazyInputs` what only a dynamic `import()` loads.
 */
async function bundle(entry: string, external: string[] = []) {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`../src/${entry}.ts`, import.meta.url))],
    bundle: true,
    minify: true,
    splitting: true,
    outdir: '/virtual/out',
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    write: false,
    metafile: true,
    conditions: ['@framework/source'],
    define: { 'process.env.NODE_ENV': '"production"' },
    external,
  });
  const outputs = result.metafile.outputs;
  const upFront = new Set<string>();
  const visit = (path: string) => {
    if (upFront.has(path)) return;
    upFront.add(path);
    for (const imported of outputs[path]!.imports)
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(Object.keys(outputs).find((path) => outputs[path]!.entryPoint)!);
  // The metafile names outputs relative to the working directory; the output files by absolute path.
  const files = result.outputFiles.filter((file) => upFront.has(relative(process.cwd(), file.path)));
  const code = Buffer.concat(files.map((file) => file.contents));
  const inputsOf = (paths: string[]) => [...new Set(paths.flatMap((path) => Object.keys(outputs[path]!.inputs)))];
  const lazy = Object.keys(outputs).filter((path) => !upFront.has(path));
  return { code, inputs: inputsOf([...upFront]), lazyInputs: inputsOf(lazy) };
}

describe('browser bundle', () => {
  it(`is under ${BUDGET_BYTES} bytes min+gzip and contains only the client and nanostores`, async () => {
    const { code, inputs } = await bundle('index');
    const gzipped = gzipSync(code, { level: 9 }).byteLength;
    console.info(`client bundle: ${code.byteLength} B minified, ${gzipped} B gzip (budget ${BUDGET_BYTES} B)`);
    expect(gzipped).toBeLessThan(BUDGET_BYTES);
    expect(inputs.filter((path) => !/(^|\/)client\/src\/|node_modules\/nanostores\//.test(path))).toEqual([]);
  });

  it('loads @simplewebauthn/browser only on the first passkey ceremony (a chunk of its own)', async () => {
    const { inputs, lazyInputs } = await bundle('index');
    expect(inputs.some((path) => path.includes('client/src/passkey.ts'))).toBe(true);
    expect(inputs.filter((path) => path.includes('@simplewebauthn'))).toEqual([]);
    expect(lazyInputs.some((path) => path.includes('node_modules/@simplewebauthn/browser/'))).toBe(true);
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
