// The Astro bench app's production server: @astrojs/node's handler (middleware mode) on Node's http server, in
// this process. Env: PORT, HOST.
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const { handler } = await import(pathToFileURL(join(import.meta.dirname, 'build', 'server', 'entry.mjs')).href);
createServer((req, res) => void handler(req, res)).listen(
  Number(process.env.PORT ?? 4321),
  process.env.HOST ?? '127.0.0.1',
);
