/**
 * The React Router example as the tests run it: `react-router build` into a
 * test folder, then the example's own `server.js` over that build.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBuiltExample, type ServerProcess } from '@framework/example-shared/testing/process';

const EXAMPLE_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

/** Builds the example and starts `server.js` on a free port. */
export function startBuiltApp(name: string): Promise<ServerProcess> {
  return startBuiltExample({
    dir: EXAMPLE_DIR,
    name,
    outVar: 'RR_OUT',
    build: [join(EXAMPLE_DIR, '../../node_modules/@react-router/dev/bin.js'), 'build'],
    server: () => [join(EXAMPLE_DIR, 'server.js')],
  });
}
