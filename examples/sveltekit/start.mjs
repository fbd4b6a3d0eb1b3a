// `npm start`: `vite build` when the build is missing or older than the sources (this example's files and the
// kit's packages it bundles), then adapter-node's server. ORIGIN defaults to http://localhost:$PORT.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStale } from '@framework/example-shared/build-if-stale';

const dir = import.meta.dirname;
await buildIfStale({
  dir,
  output: 'build',
  command: 'vite',
  args: ['build'],
  // adapter-node re-bundles Vite's server output with rollup, keeping Vite's chunk files (manualChunks, see
  // sveltejs/kit#16092); a chunk whose few exports rollup inlines elsewhere is reported empty. Harmless.
  quiet: [/^Generated an empty chunk: "chunks\/[\w-]+\.js"\.$/],
});
process.env.ORIGIN ??= `http://localhost:${process.env.PORT ?? 3000}`;
await import(pathToFileURL(join(dir, 'build', 'index.js')).href);
