/**
 * A child process serving one route for the throughput benchmark:
 * `bare` (plain Hono), `default` (authSession(auth) + requireAuth(c), jwt) or
 * `scoped` (authSession(auth, {scope: true}) + the global requireAuth(), jwt), `database` (the default on the
 * database strategy, SQLite), `better-auth` (a Hono middleware reading better-auth's `getSession`, SQLite, the
 * same route) or `noop` (a Hono middleware that only calls `next()`: the floor of any middleware, Hono leaving its
 * single-handler fast path).
 * Prints `PORT <n> <session cookie>` once listening.
 */
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { createMemoryAdapter, requireAuth as requireAuthInScope } from '@framework/auth';
import { authSession, requireAuth, type AuthVariables } from '@framework/hono';
import { signedInBetterAuth } from './better-auth-fixture.js';
import { signedInAuth } from './fixtures.js';

/**
 * The baseline routes (bare, no-op) run in a process holding the same auth instance and signed-in user as the
 * protected ones, unused: the rows then differ only in the route, not in the heap the garbage collector walks.
 */
async function baselineAuth(): Promise<void> {
  (globalThis as { benchAuth?: unknown }).benchAuth = await signedInAuth('jwt', storage());
}

const kind = process.argv[2];
/**
 * `BENCH_STORAGE=memory` (the Node 24 rows: better-sqlite3 is built for this repository's Node 20 and does not
 * load there) keeps the signed-in user in memory storage instead of SQLite.
 */
const storage = () => (process.env.BENCH_STORAGE === 'memory' ? createMemoryAdapter() : undefined);
const app = new Hono<{ Variables: AuthVariables }>();
let cookie = '';
if (kind === 'default') {
  // The default: the session is bound to the Hono context, the route uses requireAuth(c).
  const s = await signedInAuth('jwt', storage());
  cookie = s.cookie;
  app.use('*', authSession(s.auth));
  app.get('/', (c) => c.text(requireAuth(c).id));
} else if (kind === 'database') {
  const s = await signedInAuth('database');
  cookie = s.cookie;
  app.use('*', authSession(s.auth));
  app.get('/', (c) => c.text(requireAuth(c).id));
} else if (kind === 'better-auth') {
  // better-auth's documented Hono pattern: a middleware that reads the session from the request's headers.
  const s = await signedInBetterAuth();
  cookie = s.cookie;
  const reader = new Hono<{ Variables: { userId: string } }>();
  reader.use('*', async (c, next) => {
    const session = await s.auth.api.getSession({ headers: c.req.raw.headers });
    if (!session) return c.text('unauthorized', 401);
    c.set('userId', session.user.id);
    return next();
  });
  reader.get('/', (c) => c.text(c.get('userId')));
  app.route('/', reader);
} else if (kind === 'scoped') {
  // Opt-in: AsyncLocalStorage around the rest of the request, the route uses the global requireAuth().
  const s = await signedInAuth('jwt', storage());
  cookie = s.cookie;
  app.use('*', authSession(s.auth, { scope: true }));
  app.get('/', (c) => c.text(requireAuthInScope().id));
} else if (kind === 'noop') {
  await baselineAuth();
  app.use('*', (_c, next) => next());
  app.get('/', (c) => c.text('ok'));
} else {
  await baselineAuth();
  app.get('/', (c) => c.text('ok'));
}
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`PORT ${info.port} ${cookie}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
