/**
 * A child process serving one Express route for the throughput benchmark: `express-bare` (plain Express),
 * `express-noop` (behind a middleware that only calls `next()`: the floor of any middleware),
 * `express-default` (`authSession(auth, { scope: true })`, the opt-in request scope, + the global `requireAuth()`, jwt) or
 * `express-unscoped` (`authSession(auth)` as shipped, `scope: false`, + `req.auth`, no AsyncLocalStorage, jwt).
 * Prints `PORT <n> <session cookie>` once listening.
 */
import express from 'express';
import type { AddressInfo } from 'node:net';
import { requireAuth as requireAuthInScope } from '@framework/auth';
import { authSession } from '@framework/express';
import { signedInAuth } from './fixtures.js';

/**
 * The baseline routes (bare, no-op) run in a process holding the same auth instance and signed-in user as the
 * protected ones, unused: the rows then differ only in the route, not in the heap the garbage collector walks.
 */
async function baselineAuth(): Promise<void> {
  (globalThis as { benchAuth?: unknown }).benchAuth = await signedInAuth('jwt');
}

const kind = process.argv[2];
const app = express();
let cookie = '';
if (kind === 'express-default') {
  const s = await signedInAuth('jwt');
  cookie = s.cookie;
  app.use(authSession(s.auth, { scope: true }));
  app.get('/', (_req, res) => void res.send(requireAuthInScope().id));
} else if (kind === 'express-unscoped') {
  const s = await signedInAuth('jwt');
  cookie = s.cookie;
  app.use(authSession(s.auth, { scope: false }));
  app.get('/', (req, res) => {
    const user = req.auth?.user;
    if (!user) return void res.status(401).send('unauthorized');
    res.send(user.id);
  });
} else if (kind === 'express-noop') {
  await baselineAuth();
  app.use((_req, _res, next) => next());
  app.get('/', (_req, res) => void res.send('ok'));
} else {
  await baselineAuth();
  app.get('/', (_req, res) => void res.send('ok'));
}
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`PORT ${(server.address() as AddressInfo).port} ${cookie}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
