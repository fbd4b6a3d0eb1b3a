/**
 * A child process serving one route for the throughput benchmark:
 * `bare` (plain Hono), `default` (authSession(auth) + requireAuth(c), jwt) or
 * `scoped` (authSession(auth, {scope: true}) + the global requireAuth(), jwt) or `noop` (a Hono middleware that
 * only calls `next()`: the floor of any middleware, Hono leaving its single-handler fast path).
 * Prints `PORT <n> <session cookie>` once listening.
 */
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { requireAuth as requireAuthInScope } from '@framework/auth';
import { authSession, requireAuth, type AuthVariables } from '@framework/hono';
import { signedInAuth } from './fixtures.js';

const kind = process.argv[2];
const app = new Hono<{ Variables: AuthVariables }>();
let cookie = '';
if (kind === 'default') {
  // The default: the session is bound to the Hono context, the route uses requireAuth(c).
  const s = await signedInAuth('jwt');
  cookie = s.cookie;
  app.use('*', authSession(s.auth));
  app.get('/', (c) => c.text(requireAuth(c).id));
} else if (kind === 'scoped') {
  // Opt-in: AsyncLocalStorage around the rest of the request, the route uses the global requireAuth().
  const s = await signedInAuth('jwt');
  cookie = s.cookie;
  app.use('*', authSession(s.auth, { scope: true }));
  app.get('/', (c) => c.text(requireAuthInScope().id));
} else if (kind === 'noop') {
  app.use('*', (_c, next) => next());
  app.get('/', (c) => c.text('ok'));
} else {
  app.get('/', (c) => c.text('ok'));
}
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`PORT ${info.port} ${cookie}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
