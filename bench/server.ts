/**
 * A child process serving one route for the throughput benchmark:
 * `bare` (plain Hono) or `protected` (authSession + requireAuth, jwt).
 * Prints `PORT <n>` once listening.
 */
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { requireAuth } from '@framework/auth';
import { authSession } from '@framework/hono';
import { signedInAuth } from './fixtures.js';

const kind = process.argv[2];
const app = new Hono();
let cookie = '';
if (kind === 'protected') {
  const s = await signedInAuth('jwt');
  cookie = s.cookie;
  app.use('*', authSession(s.auth));
  app.get('/', (c) => c.text(requireAuth().id));
} else {
  app.get('/', (c) => c.text('ok'));
}
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`PORT ${info.port} ${cookie}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
