// The React Router bench app's production server: the build's request handler on Node's http server through
// @remix-run/node-fetch-server (as examples/remix/server.js, without its static files and Host checks).
// Env: PORT, HOST.
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequestListener } from '@remix-run/node-fetch-server';
import { createRequestHandler } from 'react-router';

const build = await import(pathToFileURL(join(import.meta.dirname, 'build', 'server', 'index.js')).href);
const handle = createRequestHandler(build, 'production');
const server = createServer(createRequestListener((request) => handle(request)));
server.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1');
