// The Next.js bench app's production server: Next.js's request handler (`next({ dev: false })`, as `next start`)
// on Node's http server, in this process. Env: PORT, HOST.
import { createServer } from 'node:http';

process.env.NODE_ENV = 'production';
const { default: next } = await import('next');

const port = Number(process.env.PORT ?? 3000);
const app = next({ dev: false, dir: import.meta.dirname, port });
await app.prepare();
const handle = app.getRequestHandler();
createServer((req, res) => void handle(req, res)).listen(port, process.env.HOST ?? '127.0.0.1');
