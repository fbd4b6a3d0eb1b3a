// The example's production server: @astrojs/node's standalone handler (pages, endpoints and the built assets)
// on Node's http server, behind one check Astro does not make. Astro builds a request's URL from its Host and its
// target; an absolute-form target (`POST http://evil.example/auth/…`, RFC 9112 §3.2.2) does not parse that way
// and Astro falls back to `/`, answering the home page instead of refusing. Here such a target gets the kit's
// 400 INVALID_REQUEST before Astro sees it; the Host itself is checked by Astro (`security.allowedDomains`).
// Env: PORT (4321), HOST (localhost), ASTRO_OUT (the test builds' folder; default the example's build/).
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

process.env.ASTRO_NODE_AUTOSTART = 'disabled';
const dist = process.env.ASTRO_OUT ? join(process.env.ASTRO_OUT, 'dist') : join(import.meta.dirname, 'build');
const { handler } = await import(pathToFileURL(join(dist, 'server', 'entry.mjs')).href);

const INVALID = JSON.stringify({ error: { code: 'INVALID_REQUEST', message: 'The request target must be a path' } });

const server = createServer((req, res) => {
  if (!req.url?.startsWith('/')) {
    res.writeHead(400, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(INVALID);
    req.resume();
    return;
  }
  handler(req, res);
});
const host = process.env.HOST ?? 'localhost';
const port = Number(process.env.PORT ?? 4321);
server.listen(port, host, () => console.log(`Listening on http://${host}:${port}`));
