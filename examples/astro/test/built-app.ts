/**
 * The Astro example as the tests run it: build.mjs (`astro build`) into a test folder (ASTRO_OUT), then the
 * example's server.mjs over that build (@astrojs/node's standalone handler).
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBuiltExample, type ServerProcess } from '@framework/example-shared/testing/process';

const EXAMPLE_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

/** Builds the example and starts server.mjs on a free port. */
export function startBuiltApp(name: string): Promise<ServerProcess> {
  return startBuiltExample({
    dir: EXAMPLE_DIR,
    name,
    outVar: 'ASTRO_OUT',
    build: [join(EXAMPLE_DIR, 'build.mjs')],
    server: () => [join(EXAMPLE_DIR, 'server.mjs')],
  });
}
