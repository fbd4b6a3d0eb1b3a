/**
 * `npm run bench` rows measured side by side in one process (tinybench,
 * median µs per call): our session reads bare and behind Hono, beside
 * better-auth's `getSession` and Auth.js's `/session` route.
 * better-auth and @auth/core are dev dependencies of `bench/` only.
 */
import { Hono } from 'hono';
import { Bench } from 'tinybench';
import { requireAuth as requireAuthInScope } from '@framework/auth';
import { authSession, requireAuth, type AuthVariables } from '@framework/hono';
import { signedInBetterAuth } from './better-auth-fixture.js';
import { signedInAuth, SECRET } from './fixtures.js';

type Row = { name: string; run: () => unknown };

async function ourRows(): Promise<Row[]> {
  const jwt = await signedInAuth('jwt');
  const db = await signedInAuth('database');
  const bare = new Hono();
  bare.get('/', (c) => c.text('ok'));
  const hono = (auth: typeof jwt.auth, scope: boolean) => {
    const app = new Hono<{ Variables: AuthVariables }>();
    app.use('*', authSession(auth, { scope }));
    app.get('/', (c) => c.text(scope ? requireAuthInScope().id : requireAuth(c).id));
    return app;
  };
  const req = (cookie: string) => new Request('http://localhost/', { headers: { cookie } });
  const honoJwt = hono(jwt.auth, false);
  const honoDb = hono(db.auth, false);
  const honoDbScoped = hono(db.auth, true);
  return [
    // What every row below pays before any library code runs (undici's Request and its Headers).
    { name: 'building the Request alone (each row builds one)', run: () => req(jwt.cookie) },
    { name: 'bare Hono app.request', run: () => bare.request(req(jwt.cookie)) },
    { name: 'auth.getSession (jwt)', run: () => jwt.auth.getSession(req(jwt.cookie)) },
    { name: 'Hono + authSession (jwt)', run: () => honoJwt.request(req(jwt.cookie)) },
    { name: 'auth.getSession (database, SQLite)', run: () => db.auth.getSession(req(db.cookie)) },
    { name: 'Hono + authSession (database, SQLite)', run: () => honoDb.request(req(db.cookie)) },
    { name: 'same, scope: true (AsyncLocalStorage)', run: () => honoDbScoped.request(req(db.cookie)) },
  ];
}

async function betterAuthRow(): Promise<Row> {
  const { auth, cookie } = await signedInBetterAuth();
  return {
    name: 'better-auth getSession (SQLite)',
    run: () => auth.api.getSession({ headers: new Headers({ cookie }) }),
  };
}

async function authJsRow(): Promise<Row> {
  const { Auth } = await import('@auth/core');
  const { default: Credentials } = await import('@auth/core/providers/credentials');
  const { encode } = await import('@auth/core/jwt');
  const config = {
    secret: SECRET,
    trustHost: true,
    basePath: '/auth',
    providers: [Credentials({ authorize: () => null })],
  };
  const salt = 'authjs.session-token';
  const token = await encode({ token: { sub: '1', name: 'Bench', email: 'bench@example.com' }, secret: SECRET, salt });
  const request = () => new Request('http://localhost/auth/session', { headers: { cookie: `${salt}=${token}` } });
  const check = (await (await Auth(request(), config)).json()) as { user?: unknown } | null;
  if (!check?.user) throw new Error('bench: Auth.js session did not read back');
  return { name: 'Auth.js /session route (jwt)', run: () => Auth(request(), config) };
}

/** Runs every row in one tinybench; returns name → median µs. Rows whose package fails to load are reported, not fatal. */
export async function compareSessionReads(): Promise<Array<{ name: string; micros: number | string }>> {
  const rows = await ourRows();
  const skipped: Array<{ name: string; micros: string }> = [];
  for (const [name, make] of [
    ['better-auth getSession', betterAuthRow],
    ['Auth.js /session route', authJsRow],
  ] as const) {
    try {
      rows.push(await make());
    } catch (e) {
      skipped.push({ name, micros: `not run: ${(e as Error).message}` });
    }
  }
  const bench = new Bench({ time: 1500, warmup: true, warmupTime: 300 });
  for (const row of rows) bench.add(row.name, row.run);
  await bench.run();
  const out: Array<{ name: string; micros: number | string }> = bench.tasks.map((t) => {
    const latency = (t.result as { latency?: { p50?: number } } | undefined)?.latency;
    return { name: t.name, micros: latency?.p50 !== undefined ? latency.p50 * 1000 : 'no result' };
  });
  return [...out, ...skipped];
}
