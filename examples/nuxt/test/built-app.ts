/**
 * The Nuxt example as the tests run it: `nuxt build` into a test folder (NUXT_OUT), then Nitro's node server.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBuiltExample, type ServerProcess } from '@framework/example-shared/testing/process';

const EXAMPLE_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

/** Builds the example and starts Nitro's server on a free port. */
export function startBuiltApp(name: string): Promise<ServerProcess> {
  return startBuiltExample({
    dir: EXAMPLE_DIR,
    name,
    outVar: 'NUXT_OUT',
    build: [join(EXAMPLE_DIR, '../../node_modules/@nuxt/cli/bin/nuxi.mjs'), 'build'],
    server: (out) => [join(out, 'output/server/index.mjs')],
  });
}
