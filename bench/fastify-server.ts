/**
 * A child process serving one Fastify route for the throughput benchmark: `fastify-bare` (plain Fastify),
 * `fastify-noop` (behind a preHandler that only calls `done()`: the floor of any guard), `fastify-default`
 * (`authPlugin` with `scope: false` + the `requireAuth()` preHandler, jwt) or `fastify-scoped` (`authPlugin` with
 * the opt-in request scope, `scope: true`, + the global `requireAuth()`, jwt). Prints `PORT <n> <session cookie>` once listening.
 */
import Fastify from 'fastify';
import { requireAuth as requireAuthInScope } from '@framework/auth';
import { authPlugin, requireAuth } from '@framework/fastify';
import { signedInAuth } from './fixtures.js';

/**
 * The baseline routes (bare, no-op) run in a process holding the same auth instance and signed-in user as the
 * protected ones, unused: the rows then differ only in the route, not in the heap the garbage collector walks.
 */
async function baselineAuth(): Promise<void> {
  (globalThis as { benchAuth?: unknown }).benchAuth = await signedInAuth('jwt');
}

const kind = process.argv[2];
const app = Fastify();
let cookie = '';
if (kind === 'fastify-default') {
  const s = await signedInAuth('jwt');
  cookie = s.cookie;
  await app.register(authPlugin, { auth: s.auth, scope: false });
  app.get('/', { preHandler: requireAuth() }, (request) => request.auth!.user!.id);
} else if (kind === 'fastify-scoped') {
  const s = await signedInAuth('jwt');
  cookie = s.cookie;
  await app.register(authPlugin, { auth: s.auth, scope: true });
  app.get('/', () => requireAuthInScope().id);
} else if (kind === 'fastify-noop') {
  await baselineAuth();
  app.get('/', { preHandler: (_request, _reply, done) => done() }, () => 'ok');
} else {
  await baselineAuth();
  app.get('/', () => 'ok');
}
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`PORT ${new URL(address).port} ${cookie}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
