// `npm start`: `nuxt build` when the build is missing or older than the sources (this example's files and the
// kit's packages it bundles), then Nitro's server (PORT and HOST as Nitro reads them; 3000 by default).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStale } from '@framework/example-shared/build-if-stale';

const dir = import.meta.dirname;
await buildIfStale({ dir, output: 'build', command: 'nuxt', args: ['build'] });
await import(pathToFileURL(join(dir, 'build', 'output', 'server', 'index.mjs')).href);
