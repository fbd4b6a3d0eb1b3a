// The example's production server: the React Router build on Node's http
// server (@react-router/node), the client assets from build/client, and the
// client's socket address handed to loaders as `context.ip` (the kit's
// sign-in rate limits key on it; @framework/remix reads it there).
// Env: PORT (3000), HOST (0.0.0.0), RR_OUT (the build folder, default build).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequestListener } from '@react-router/node';

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

/** Serves a file of build/client for GET/HEAD; false when there is none. Hashed /assets/ files are cached for a year. */
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

const build = await import(pathToFileURL(join(buildDir, 'server/index.js')).href);
const app = createRequestListener({ build, mode: 'production', getLoadContext: (_request, client) => ({ ip: client.address }) });

const port = Number(process.env.PORT ?? 3000);
const server = createServer((req, res) => {
  serveAsset(req, res).then((served) => served || app(req, res), (error) => {
    res.statusCode = 500;
    res.end(String(error));
  });
});
server.listen(port, process.env.HOST ?? '0.0.0.0', () => console.log(`remix example listening on http://localhost:${port}`));

const shutdown = () => server.close(() => process.exit(0));
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
