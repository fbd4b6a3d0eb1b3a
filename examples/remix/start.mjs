// `npm start`: `react-router build` when the build is missing or older than the sources (this example's files
// and the kit's packages it bundles), then server.js.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStale } from '@framework/example-shared/build-if-stale';

const dir = import.meta.dirname;
await buildIfStale({
  dir,
  output: process.env.RR_OUT ?? 'build',
  command: 'react-router',
  args: ['build'],
  // React Router 7 passes Vite's deprecated `envFile: false` to its internal Vite servers, and Vite 8 warns on
  // each (fixed in React Router 8 only: remix-run/react-router#15230). Nothing to act on, so not shown.
  quiet: [/^The `envFile` option is deprecated, please use `envDir: false` instead\.$/],
});
await import(pathToFileURL(join(dir, 'server.js')).href);
