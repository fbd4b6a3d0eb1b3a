/** The client as a page loads it in the browser tests: one IIFE script exposing the exports as `window.authClient`. */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** Bundles `src/index.ts` (the sources, through the `@framework/source` condition) for a `<script src>`. */
export async function clientScript(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    globalName: 'authClient',
    platform: 'browser',
    conditions: ['@framework/source'],
    write: false,
  });
  return result.outputFiles[0]!.text;
}
