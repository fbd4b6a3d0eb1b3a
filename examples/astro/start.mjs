// `npm start`: build.mjs (`astro build`) when the build is missing or older than the sources (this example's
// files and the kit's packages it bundles), then server.mjs: @astrojs/node's standalone handler (PORT and HOST;
// 4321 by default).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStale } from '@framework/example-shared/build-if-stale';

const dir = import.meta.dirname;
await buildIfStale({ dir, output: 'build', command: 'node', args: ['build.mjs'] });
await import(pathToFileURL(join(dir, 'server.mjs')).href);
