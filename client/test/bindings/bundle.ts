/**
 * Bundles a binding test page for the browser with esbuild, as an app's
 * bundler would: production `NODE_ENV`, Vue's feature flags, and `.svelte`
 * files compiled by the `svelte` compiler.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { compile } from 'svelte/compiler';

const svelte: Plugin = {
  name: 'svelte',
  setup(b) {
    b.onLoad({ filter: /\.svelte$/ }, async ({ path }) => {
      const { js } = compile(await readFile(path, 'utf8'), { filename: path, generate: 'client' });
      return { contents: js.code, loader: 'js' };
    });
  },
};

/** The page `{name}.page.ts` beside this file as one browser script. */
export async function bundlePage(name: string): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`./${name}.page.ts`, import.meta.url))],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    plugins: [svelte],
    // The bindings import the client by the package's name: take its sources, as the tests do.
    conditions: ['@framework/source'],
    define: {
      'process.env.NODE_ENV': '"production"',
      __VUE_OPTIONS_API__: 'false',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    },
  });
  return result.outputFiles[0]!.text;
}
