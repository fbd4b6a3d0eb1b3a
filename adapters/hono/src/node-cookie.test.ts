import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { createAuth, createMemoryAdapter, credentials, passwordAccounts } from '@framework/auth';
import { authSession, mountAuth, type AuthVariables } from './index.js';

/**
 * On @hono/node-server, authSession reads the Cookie header from Node's IncomingMessage (no Web Headers built),
 * but only for the server's own request: a Request the app builds and fetches with the same env is read through
 * its own headers.
 */
describe('authSession on @hono/node-server', async () => {
  const adapter = createMemoryAdapter();
  const passwords = passwordAccounts(adapter);
  await passwords.register({ email: 'ada@example.com', password: 'analytical-engine' });
  await passwords.register({ email: 'bob@example.com', password: 'analytical-engine' });
  const auth = createAuth({
    secret: 's'.repeat(40),
    adapter,
    providers: [
      credentials({
        credentials: { email: { label: 'E', type: 'email' }, password: { label: 'P', type: 'password' } },
        authorize: passwords.authorize,
      }),
    ],
  });
  const inner = new Hono<{ Variables: AuthVariables }>();
  inner.use('*', authSession(auth));
  inner.get('/who', (c) => c.json({ user: c.get('user')?.email ?? null }));
  // Whether node-server has built the request's Web Headers by now (it keeps them under a private symbol).
  inner.get('/headers-built', (c) => {
    const raw = c.req.raw as unknown as Record<symbol, unknown>;
    return c.json({
      user: c.get('user')?.email ?? null,
      built: Object.getOwnPropertySymbols(raw).some((symbol) => raw[symbol] instanceof Headers),
    });
  });
  const app = new Hono<{ Variables: AuthVariables }>();
  mountAuth(app, auth);
  // A middleware that rewrites the Cookie header of the request before the session is read: strips it, or
  // replaces it with a session handed over in a header.
  app.use('/api/*', async (c, next) => {
    c.req.raw.headers.delete('cookie');
    const handedOver = c.req.header('x-session');
    if (handedOver) c.req.raw.headers.set('cookie', `framework.session-token=${handedOver}`);
    await next();
  });
  app.use('/api/*', authSession(auth));
  app.get('/api/who', (c) => c.json({ user: c.get('user')?.email ?? null }));
  app.get('/who', (c) => inner.fetch(c.req.raw, c.env));
  app.get('/headers-built', (c) => inner.fetch(c.req.raw, c.env));
  // Forwards to the inner app without the visitor's cookies, keeping the server's env.
  app.get('/anonymous-who', (c) => inner.fetch(new Request(new URL('/who', c.req.url)), c.env));
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function signIn(email = 'ada@example.com'): Promise<string> {
    const csrf = await fetch(`${base}/auth/csrf`);
    const csrfCookie = csrf.headers.get('set-cookie')!.split(';')[0]!;
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const res = await fetch(`${base}/auth/callback/credentials`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', cookie: csrfCookie },
      body: JSON.stringify({ csrfToken, email, password: 'analytical-engine' }),
    });
    expect(res.status).toBe(200);
    return res.headers
      .getSetCookie()
      .find((line) => line.startsWith('framework.session-token='))!
      .split(';')[0]!;
  }

  it("reads the session cookie of the server's own request", async () => {
    const cookie = await signIn();
    const who = (url: string) => fetch(`${base}${url}`, { headers: { cookie: `theme=dark; ${cookie}` } });
    expect(await (await who('/who')).json()).toEqual({ user: 'ada@example.com' });
    expect(await (await fetch(`${base}/who`)).json()).toEqual({ user: null });
    // The fast path is taken: the session was read without building the Web headers.
    const built = await fetch(`${base}/headers-built`, { headers: { cookie } });
    expect(await built.json()).toEqual({ user: 'ada@example.com', built: false });
  });

  it('reads a Request the app built through its own headers, never the original connection', async () => {
    const cookie = await signIn();
    const res = await fetch(`${base}/anonymous-who`, { headers: { cookie } });
    expect(await res.json()).toEqual({ user: null });
  });

  it('reads the cookie a middleware left, once it has changed the Web headers', async () => {
    const ada = await signIn();
    const bob = await signIn('bob@example.com');
    const stripped = await fetch(`${base}/api/who`, { headers: { cookie: ada } });
    expect(await stripped.json()).toEqual({ user: null });
    const handedOver = await fetch(`${base}/api/who`, { headers: { cookie: ada, 'x-session': bob.split('=')[1]! } });
    expect(await handedOver.json()).toEqual({ user: 'bob@example.com' });
  });
});
