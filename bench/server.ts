/**
 * A child process serving one route for the throughput benchmark:
 * `bare` (plain Hono), `scoped` (authSession + requireAuth, jwt) or
 * `context` (authSession({scope: false}) + c.get('user'), jwt).
 * Prints `PORT <n>` once listening.
 */
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { requireAuth } from '@framework/auth';
import { authSession, type AuthVariables } from '@framework/hono';
import { signedInAuth } from './fixtures.js';

const kind = process.argv[2];
const app = new Hono<{ Variables: AuthVariables }>();
let cookie = '';
if (kind === 'scoped') {
  // Default mode: the request scope is open, the route uses requireAuth().
  const s = await signedInAuth('jwt');
  cookie = s.cookie;
  app.use('*', authSession(s.auth));
  app.get('/', (c) => c.text(requireAuth().id));
} else if (kind === 'context') {
  // Context-only mode: no AsyncLocalStorage, the route reads c.get('user').
  const s = await signedInAuth('jwt');
  cookie = s.cookie;
  app.use('*', authSession(s.auth, { scope: false }));
  app.get('/', (c) => {
    const user = c.get('user');
    return user ? c.text(user.id) : c.text('Unauthorized', 401);
  });
} else {
  app.get('/', (c) => c.text('ok'));
}
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`PORT ${info.port} ${cookie}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
