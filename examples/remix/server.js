// The example's production server: the React Router build (react-router's
// createRequestHandler) on Node's http server through
// @remix-run/node-fetch-server (the maintained Fetch-to-Node bridge the
// Express adapter uses too), the client assets from build/client, and the
// client's socket address handed to loaders as `context.ip` (the kit's
// sign-in rate limits key on it; @framework/remix reads it there).
// Hostile input never takes the process down: a malformed Host or a target
// that is not a path gets a 400 before any URL is built, the bridge answers
// a handler's failure with a 500 that carries no stack, and the whole chain
// ends in a catch.
// Env: PORT (3000), HOST (0.0.0.0), RR_OUT (the build folder, default build).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequestListener } from '@remix-run/node-fetch-server';
import { createRequestHandler } from 'react-router';

const buildDir = resolve(process.env.RR_OUT ?? 'build');
const assets = join(buildDir, 'client');
const types = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/**
 * Serves a file of build/client for GET/HEAD; false when there is none. Hashed /assets/ files are cached for
 * a year.
 */
async function serveAsset(req, res) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  let path;
  try {
    path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  } catch {
    return false;
  }
  const file = resolve(assets, `.${path}`);
  if (!file.startsWith(assets + sep)) return false;
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return false;
  res.writeHead(200, {
    'content-type': types[extname(file)] ?? 'application/octet-stream',
    'content-length': info.size,
    'cache-control': path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
  });
  if (req.method === 'HEAD') res.end();
  else createReadStream(file).pipe(res);
  return true;
}

// A Host that is only a host and an optional port (no userinfo, path or spaces).
const HOST_VALUE = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~%!$&'()*+,;=]+)(?::\d{1,5})?$/;

/** True for an origin-form target (a path, RFC 9112 §3.2.1) on a well-formed Host, whose URL parses. */
function wellFormed(req) {
  const host = req.headers.host;
  return (
    typeof host === 'string' &&
    HOST_VALUE.test(host) &&
    (req.url ?? '').startsWith('/') &&
    URL.canParse(`http://${host}${req.url}`)
  );
}

/** A plain-text answer with no stack, for requests refused before the app. */
function plain(res, status, text) {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(text);
}

const build = await import(pathToFileURL(join(buildDir, 'server/index.js')).href);
const handle = createRequestHandler(build, 'production');
const app = createRequestListener((request, client) => handle(request, { ip: client.address }), {
  onError(error) {
    console.error(error);
    return new Response('Internal Server Error', {
      status: 500,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
    });
  },
});

const port = Number(process.env.PORT ?? 3000);
const server = createServer((req, res) => {
  if (!wellFormed(req)) return plain(res, 400, 'Bad Request');
  serveAsset(req, res)
    .then((served) => served || app(req, res))
    .catch((error) => {
      console.error(error);
      plain(res, 500, 'Internal Server Error');
    });
});
server.listen(port, process.env.HOST ?? '0.0.0.0', () =>
  console.log(`remix example listening on http://localhost:${port}`),
);

const shutdown = () => server.close(() => process.exit(0));
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
