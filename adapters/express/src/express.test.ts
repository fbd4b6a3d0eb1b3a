/**
 * The Express adapter over real HTTP: the auth flow, a body-parser-first
 * set-up, the request scope, cookies, streaming, sub-apps and webhooks.
 */
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type Express } from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createAuth,
  credentials,
  getUser,
  createMemoryAdapter,
  passwordAccounts,
  requireAuth,
  type Auth,
} from '@framework/auth';
import { createTriggerRuntime, defineTrigger } from '@framework/trigger';
import { customHmacVerifier } from '@framework/trigger/verifiers';
import { cookieClient, type CookieClient } from '@framework/testing/conformance';
import { countRequests } from '../../../test-support/request-count.js';
import { authErrorHandler, authSession, authRouter, sendWebResponse, triggerRouter } from './index.js';
import { scopeOf } from './request-scope.js';

const EMAIL = 'ada@example.com';
const PASSWORD = 'analytical-engine';

async function makeAuth(strategy: 'database' | 'jwt' = 'database', refreshEveryRequest = false): Promise<Auth> {
  const adapter = createMemoryAdapter();
  const passwords = passwordAccounts(adapter);
  await passwords.register({ email: EMAIL, password: PASSWORD, name: 'Ada' });
  return createAuth({
    session: { strategy, ...(refreshEveryRequest ? { updateAge: 0 } : {}) },
    secret: 's'.repeat(40),
    adapter,
    providers: [
      credentials({
        credentials: { email: { label: 'E', type: 'email' }, password: { label: 'P', type: 'password' } },
        authorize: passwords.authorize,
      }),
    ],
  });
}

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listen(app: Express): Promise<string> {
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function signIn(b: CookieClient, how: 'json' | 'form' = 'json'): Promise<Response> {
  const { csrfToken } = (await (await b.fetch('/auth/csrf')).json()) as { csrfToken: string };
  const fields = { csrfToken, email: EMAIL, password: PASSWORD, callbackUrl: '/me' };
  return how === 'json' ? b.json('/auth/callback/credentials', fields) : b.form('/auth/callback/credentials', fields);
}

function routes(app: Express): Express {
  app.get('/me', (req, res) => {
    res.json({
      user: req.auth?.user?.email ?? null,
      local: (res.locals.user as { email?: string } | null)?.email ?? null,
      helper: getUser()?.email ?? null,
    });
  });
  app.get('/private', (_req, res) => {
    res.send(`hi ${requireAuth().name}`);
  });
  app.get('/api/private', (_req, res) => {
    res.json({ email: requireAuth({ throwError: true }).email });
  });
  app.post('/echo', (req, res) => {
    res.json({ body: req.body as unknown, helper: getUser()?.email ?? null });
  });
  return app;
}

describe('Express adapter', () => {
  it('drives sign-in, session, the protected page and sign-out over a real server', async () => {
    const auth = await makeAuth();
    const app = express();
    app.use(authRouter(auth));
    app.use(authSession(auth, { scope: true }));
    routes(app);
    app.use(authErrorHandler(auth));
    const b = cookieClient(await listen(app));

    expect((await b.fetch('/private')).status).toBe(302);
    expect((await b.fetch('/private')).headers.get('location')).toBe('/auth/signin?callbackUrl=%2Fprivate');
    const unauth = await b.fetch('/api/private', { headers: { accept: 'application/json' } });
    expect(unauth.status).toBe(401);
    expect(await unauth.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });

    const res = await signIn(b);
    expect(await res.json()).toEqual({ ok: true, url: '/me' });
    expect(await (await b.fetch('/me')).json()).toEqual({ user: EMAIL, local: EMAIL, helper: EMAIL });
    expect(await (await b.fetch('/private')).text()).toBe('hi Ada');
    expect(await (await b.fetch('/auth/session', { headers: { accept: 'application/json' } })).json()).toMatchObject({
      user: { email: EMAIL },
    });

    const { csrfToken } = (await (await b.fetch('/auth/csrf')).json()) as { csrfToken: string };
    const out = await b.form('/auth/signout', { csrfToken });
    expect(out.status).toBe(303);
    expect(await (await b.fetch('/me')).json()).toEqual({ user: null, local: null, helper: null });
  });

  it('works when body parsers ran first (JSON and urlencoded), re-serialising the body', async () => {
    const auth = await makeAuth();
    const app = express();
    app.use(express.json(), express.urlencoded({ extended: true }));
    app.use(authRouter(auth));
    app.use(authSession(auth, { scope: true }));
    routes(app);
    const base = await listen(app);
    const json = cookieClient(base);
    expect((await signIn(json, 'json')).status).toBe(200);
    expect((await json.fetch('/me').then((r) => r.json())) as unknown).toMatchObject({ user: EMAIL });
    const form = cookieClient(base);
    const res = await signIn(form, 'form');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/me');
    expect(await (await form.fetch('/me')).json()).toMatchObject({ user: EMAIL });
    const echo = await form.fetch('/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":[1,2]}',
    });
    expect(await echo.json()).toEqual({ body: { a: [1, 2] }, helper: EMAIL });
  });

  it('keeps the request scope across a body parser mounted after the middleware', async () => {
    const auth = await makeAuth();
    const app = express();
    app.use(authRouter(auth));
    app.use(authSession(auth, { scope: true }));
    app.use(express.json());
    routes(app);
    const b = cookieClient(await listen(app));
    await signIn(b);
    const echo = await b.fetch('/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"n":1}',
    });
    expect(await echo.json()).toEqual({ body: { n: 1 }, helper: EMAIL });
  });

  it('by default (as with scope: false) sets req.auth and res.locals only, without AsyncLocalStorage', async () => {
    const auth = await makeAuth();
    const app = express();
    app.use(authRouter(auth));
    app.use(authSession(auth));
    app.get('/me', (req, res) => {
      let helper = 'no scope';
      try {
        helper = getUser()?.email ?? 'null';
      } catch {
        // outside a request scope
      }
      res.json({ user: req.auth?.user?.email ?? null, helper });
    });
    const b = cookieClient(await listen(app));
    await signIn(b);
    expect(await (await b.fetch('/me')).json()).toEqual({ user: EMAIL, helper: 'no scope' });
  });

  it('reads the session from the Cookie header without building a Web Request; builds one when read', async () => {
    const auth = await makeAuth('jwt');
    const app = express();
    app.use(authRouter(auth));
    const requests = countRequests();
    try {
      app.use((_req, _res, next) => (requests.reset(), next()));
      app.use(authSession(auth));
      app.get('/me', (req, res) => void res.json({ user: req.auth?.user?.email ?? null, built: requests.built }));
      app.get('/url', (req, res) => void res.json({ url: scopeOf(req)?.request.url, built: requests.built }));
      const base = await listen(app);
      const b = cookieClient(base);
      await signIn(b);
      expect(await (await b.fetch('/me')).json()).toEqual({ user: EMAIL, built: 0 });
      expect(await (await b.fetch('/me')).json()).toEqual({ user: EMAIL, built: 0 });
      expect(await (await b.fetch('/url?q=1')).json()).toEqual({ url: `${base}/url?q=1`, built: 1 });
    } finally {
      requests.restore();
    }
  });

  it('forwards every Set-Cookie: a refreshed session cookie and the app’s own', async () => {
    const auth = await makeAuth('jwt', true);
    const app = express();
    app.use(authRouter(auth));
    app.use(authSession(auth));
    app.get('/two', (_req, res) => {
      res.cookie('theme', 'dark');
      res.send('ok');
    });
    app.get('/web', (_req, res, next) => {
      const headers = new Headers();
      headers.append('set-cookie', 'a=1; Path=/');
      headers.append('set-cookie', 'b=2; Path=/');
      sendWebResponse(res, new Response('web', { headers })).catch(next);
    });
    const b = cookieClient(await listen(app));
    await signIn(b);
    await new Promise((r) => setTimeout(r, 1100)); // next whole second: the re-issued JWT differs
    const two = await b.fetch('/two');
    const names = two.headers.getSetCookie().map((line) => line.split('=')[0]);
    expect(names).toEqual(['framework.session-token', 'theme']);
    const web = await b.fetch('/web');
    expect(web.headers.getSetCookie().map((line) => line.split('=')[0])).toEqual(['framework.session-token', 'a', 'b']);
  });

  it('streams responses: the first chunk arrives before the body ends', async () => {
    const app = express();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    app.get('/stream', (_req, res, next) => {
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode('first;'));
          await gate;
          controller.enqueue(new TextEncoder().encode('second'));
          controller.close();
        },
      });
      sendWebResponse(res, new Response(body)).catch(next);
    });
    const res = await fetch(`${await listen(app)}/stream`);
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('first;');
    release();
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toBe('second');
  });

  it('matches basePath on the original URL inside a sub-app, and leaves other paths alone', async () => {
    const auth = createAuth({
      basePath: '/api/auth',
      session: { strategy: 'jwt' },
      secret: 's'.repeat(40),
      providers: [],
    });
    const sub = express();
    sub.use(authRouter(auth));
    sub.get('/hello', (_req, res) => void res.send('hello'));
    const app = express();
    app.use('/api', sub);
    const base = await listen(app);
    const csrf = await fetch(`${base}/api/auth/csrf`);
    expect(csrf.status).toBe(200);
    expect(await csrf.json()).toHaveProperty('csrfToken');
    expect(await (await fetch(`${base}/api/hello`)).text()).toBe('hello');
  });

  it('keeps a connection usable after answering 413 without reading the body', async () => {
    const auth = await makeAuth();
    const app = express();
    app.use(authRouter(auth));
    const base = await listen(app);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${base}/auth/callback/credentials`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: 'x'.repeat(300_000),
      });
      expect(res.status).toBe(413);
      await res.arrayBuffer();
      expect((await fetch(`${base}/auth/csrf`)).status).toBe(200);
    }
  });
});

describe('triggerRouter', () => {
  const SECRET = 'hook-secret';
  const sign = (body: string) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
  function runtime(received: unknown[]) {
    return createTriggerRuntime({
      env: {},
      triggers: {
        hook: defineTrigger({
          source: {
            type: 'webhook',
            path: '/hooks/in',
            verifier: customHmacVerifier({
              secret: SECRET,
              algorithm: 'sha256',
              header: 'x-signature',
              prefix: 'sha256=',
            }),
          },
          handle: (event) => void received.push(event.payload),
        }),
      },
    });
  }
  const post = (base: string, body: string, signature: string, path = '/hooks/in') =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': signature },
      body,
    });

  it('delivers verified webhooks, refuses bad signatures and hands other paths on with their body', async () => {
    const received: unknown[] = [];
    const app = express();
    app.use(triggerRouter(runtime(received)));
    app.use(express.json());
    app.post('/other', (req, res) => void res.json(req.body));
    const base = await listen(app);
    const body = '{ "id": 1 }';
    const ok = await post(base, body, sign(body));
    expect(ok.status).toBe(200);
    expect(received).toEqual([{ id: 1 }]);
    expect((await post(base, body, sign('{}'))).status).toBe(401);
    expect((await fetch(`${base}/hooks/in`)).status).toBe(405);
    expect(await (await post(base, '{"kept":true}', 'x', '/other')).json()).toEqual({ kept: true });
  });

  it('uses req.rawBody when a JSON parser had to run first', async () => {
    const received: unknown[] = [];
    const app = express();
    app.use(
      express.json({
        verify: (req, _res, buf) => {
          (req as { rawBody?: Buffer }).rawBody = Buffer.from(buf);
        },
      }),
    );
    app.use(triggerRouter(runtime(received)));
    const base = await listen(app);
    const body = '{ "spaced" :  true }';
    expect((await post(base, body, sign(body))).status).toBe(200);
    expect(received).toEqual([{ spaced: true }]);
  });

  it('works with a runtime that lists no routes (every request is offered to it)', async () => {
    const received: unknown[] = [];
    const full = runtime(received);
    const app = express();
    app.use(triggerRouter({ fetch: (request) => full.fetch(request) }));
    app.get('/plain', (_req, res) => void res.send('plain'));
    const base = await listen(app);
    const body = '{"id":2}';
    expect((await post(base, body, sign(body))).status).toBe(200);
    expect(await (await fetch(`${base}/plain`)).text()).toBe('plain');
  });
});
