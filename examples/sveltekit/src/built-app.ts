/**
 * The SvelteKit example as the tests run it: `vite build` (adapter-node's
 * server lands in `<out>/build`), then `node <out>/build/index.js`.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBuiltExample, type ServerProcess } from '@framework/example-shared/testing/process';

const EXAMPLE_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

/** Builds the example and starts adapter-node's server on a free port. */
export function startBuiltApp(name: string): Promise<ServerProcess> {
  return startBuiltExample({
    dir: EXAMPLE_DIR,
    name,
    outVar: 'KIT_OUT',
    build: [join(EXAMPLE_DIR, '../../node_modules/vite/bin/vite.js'), 'build'],
    server: (out) => [join(out, 'build/index.js')],
  });
}
