// The example's production server: Next.js's request handler (a custom server, `next({ dev: false })`) on Node's
// http server. Two things happen before Next.js sees a request:
// - a `Host` that is not a host and port, or a target that is not a path (absolute-form), gets a plain 400: Next.js
//   builds URLs from both;
// - X-Forwarded-For is replaced by the socket address (Next.js fills it only when the client sent none), so the
//   kit's sign-in rate limits key on the real client (lib/example.ts reads it).
// Env: PORT (3000), HOST (127.0.0.1), NEXT_OUT (the build folder, default build), AUTH_URL (or ORIGIN; default
// http://localhost:PORT), and AUTH_SECRET and WEBHOOK_SECRET (required: the build runs as production; start.mjs
// provides them for local runs).
import { createServer } from 'node:http';

// A custom server sets this itself (`next start` does): production, unless NODE_ENV says otherwise (the tests run
// it with vitest's `test`, as the other examples' servers: plain-HTTP cookies, the development webhook secret
// allowed). Either way it is set before Next.js and React load, so the build and the packages Node loads agree.
process.env.NODE_ENV ??= 'production';
const { default: next } = await import('next');

/** A Host of only a host and an optional port (RFC 3986 reg-name, IPv4 or IP-literal). */
const HOST_ONLY = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~%!$&'()*+,;=]+)(?::\d{1,5})?$/;

function refusal(req) {
  const host = req.headers.host;
  if (typeof host !== 'string' || !HOST_ONLY.test(host)) return 'malformed Host';
  if (!req.url?.startsWith('/') || !URL.canParse(`http://${host}${req.url}`)) return 'target is not a path';
  return null;
}

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '127.0.0.1';
// Links and the CSRF origin check use the public origin, never the request's Host (the kit refuses to start in
// production without one): AUTH_URL, else ORIGIN, else http://localhost:PORT.
process.env.AUTH_URL ??= process.env.ORIGIN ?? `http://localhost:${port}`;
// No `hostname` here: Next.js then builds its internal URLs on localhost:PORT, as the middleware sees them, and sends
// the middleware's same-origin redirects as paths.
const app = next({ dev: false, dir: import.meta.dirname, port });
await app.prepare();
const handle = app.getRequestHandler();

const server = createServer((req, res) => {
  if (refusal(req)) {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    return void res.end('Bad Request');
  }
  req.headers['x-forwarded-for'] = req.socket.remoteAddress ?? '';
  handle(req, res).catch((error) => {
    console.error(error);
    if (res.headersSent) return void res.destroy();
    res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end('Internal Server Error');
  });
});
server.listen(port, hostname, () => console.log(`next example listening on http://${hostname}:${port}`));

const shutdown = () => server.close(() => process.exit(0));
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
