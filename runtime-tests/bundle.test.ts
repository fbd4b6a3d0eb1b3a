/** What the workerd bundle of the kit contains, and what it must not. */
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { bundleWorker } from './src/workerd/bundle.js';

it('bundles the suite Worker with argon2 as Wasm modules and no native argon2 code', async () => {
  const modules = await bundleWorker(fileURLToPath(new URL('./src/workerd/entry.ts', import.meta.url)));
  expect(modules.map((m) => `${m.type} ${m.path}`)).toStrictEqual([
    'ESModule worker.js',
    'CompiledWasm hash-wasm-argon2.wasm',
    'CompiledWasm hash-wasm-blake2b.wasm',
  ]);
  const js = modules[0]!.contents as string;
  expect(js).not.toMatch(/argon2\.linux-x64|\.node['"]|require\(["']@node-rs/);
  const staticImports = [...js.matchAll(/^import [^\n]*? from ["']([^"']+)["'];?$/gm)].map((m) => m[1]);
  expect(staticImports.filter((s) => !s!.startsWith('node:') && !/^\.\/hash-wasm-\w+\.wasm$/.test(s!))).toStrictEqual(
    [],
  );
}, 30_000);
