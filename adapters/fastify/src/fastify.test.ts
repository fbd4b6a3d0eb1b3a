/**
 * The Fastify adapter over real HTTP: the auth flow, request.auth and the request scope (across Fastify's body
 * parsing too), scope: false, the guards, cookies, streaming, a custom basePath and prefix-free routes, the
 * client IP under trustProxy, and webhooks.
 */
import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  createAuth,
  credentials,
  getUser,
  createMemoryAdapter,
  passwordAccounts,
  requireAuth as currentUser,
  type Auth,
  type RequestInfo,
} from '@framework/auth';
import { createTriggerRuntime, defineTrigger } from '@framework/trigger';
import { countRequests } from '../../../test-support/request-count.js';
import { customHmacVerifier } from '@framework/trigger/verifiers';
import { cookieClient, rawRequest, singleConnectionAgent, type CookieClient } from '@framework/testing/conformance';
import { authPlugin, requireAuth, sendWebResponse, triggerRoutes, type AuthPluginOptions } from './index.js';

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

const apps: FastifyInstance[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
});

async function start(
  auth: Auth,
  routes: (app: FastifyInstance) => void,
  plugin: Partial<AuthPluginOptions> = {},
  server: FastifyServerOptions = {},
): Promise<string> {
  const app = Fastify(server);
  apps.push(app);
  // The routes below use the global helpers: scope on, unless a test says otherwise.
  await app.register(authPlugin, { auth, scope: true, log: () => {}, ...plugin });
  routes(app);
  return app.listen({ port: 0, host: '127.0.0.1' });
}

async function signIn(b: CookieClient, how: 'json' | 'form' = 'json'): Promise<Response> {
  const { csrfToken } = (await (await b.fetch('/auth/csrf')).json()) as { csrfToken: string };
  const fields = { csrfToken, email: EMAIL, password: PASSWORD, callbackUrl: '/me' };
  return how === 'json' ? b.json('/auth/callback/credentials', fields) : b.form('/auth/callback/credentials', fields);
}

function routes(app: FastifyInstance): void {
  app.get('/me', (request) => ({
    user: request.auth?.user?.email ?? null,
    helper: getUser()?.email ?? null,
  }));
  app.get('/private', { preHandler: requireAuth() }, (request) => `hi ${request.auth!.user!.name}`);
  app.get('/api/private', () => ({ email: currentUser({ throwError: true }).email }));
  app.post('/echo', async (request) => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return { body: request.body, helper: getUser()?.email ?? null };
  });
}

describe('authPlugin', () => {
  it('drives sign-in, session, the guard and sign-out over a real server', async () => {
    const base = await start(await makeAuth(), routes);
    const b = cookieClient(base);
    expect(await (await b.fetch('/me')).json()).toEqual({ user: null, helper: null });
    // A browser (fetch() always sends Sec-Fetch-Mode: cors, so a plain Node request stands in for one).
    const agent = singleConnectionAgent();
    const out = await rawRequest(base, agent, { target: '/private?tab=1', headers: { accept: 'text/html' } });
    agent.destroy();
    expect(out.status).toBe(302);
    expect(out.headers.location).toBe('/auth/signin?callbackUrl=%2Fprivate%3Ftab%3D1');
    const api = await b.fetch('/private', { headers: { accept: 'application/json' } });
    expect(api.status).toBe(401);
    expect(await api.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    expect((await signIn(b, 'form')).status).toBe(303);
    expect(await (await b.fetch('/me')).json()).toEqual({ user: EMAIL, helper: EMAIL });
    expect(await (await b.fetch('/private')).text()).toBe('hi Ada');
    expect(await (await b.fetch('/api/private')).json()).toEqual({ email: EMAIL });
    const page = await (await b.fetch('/auth/csrf')).json();
    const signOut = await b.json('/auth/signout', page as Record<string, string>);
    expect(signOut.status).toBe(200);
    expect((await b.fetch('/api/private', { headers: { accept: 'application/json' } })).status).toBe(401);
  });

  it("keeps the request scope in handlers after Fastify's body parser and an await", async () => {
    const base = await start(await makeAuth(), routes);
    const b = cookieClient(base);
    await signIn(b);
    for (let i = 0; i < 3; i++) {
      const res = await b.fetch('/echo', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ n: i, pad: 'x'.repeat(40_000) }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ body: { n: i }, helper: EMAIL });
    }
    // The body arriving after the headers, in pieces: Fastify's parser reads it in the socket's async context.
    const cookie = await b.jar.getCookieString(base);
    const late = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(`${base}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.flushHeaders();
      setTimeout(() => req.write('{"late":'), 50);
      setTimeout(() => req.end('true}'), 100);
    });
    expect(JSON.parse(late)).toEqual({ body: { late: true }, helper: EMAIL });
    // Concurrent requests of two people never see each other's scope.
    const other = cookieClient(base);
    const [mine, theirs] = await Promise.all([
      b.fetch('/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      other.fetch('/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
    ]);
    expect(((await mine.json()) as { helper: string }).helper).toBe(EMAIL);
    expect(((await theirs.json()) as { helper: string | null }).helper).toBeNull();
  });

  it('by default (and with scope: false) sets request.auth and keeps the guards, without AsyncLocalStorage', async () => {
    const base = await start(await makeAuth(), routes, { scope: undefined });
    const b = cookieClient(base);
    await signIn(b);
    expect((await b.fetch('/me')).status).toBe(500); // getUser() outside a request scope
    expect(await (await b.fetch('/private')).text()).toBe('hi Ada');
  });

  it('reads the session from the Cookie header without building a Web Request; builds one when read', async () => {
    const requests = countRequests();
    try {
      const base = await start(
        await makeAuth('jwt'),
        (app) => {
          app.get('/me', (request) => ({ user: request.auth?.user?.email ?? null }));
          app.get('/guarded', { preHandler: requireAuth() }, (request) => ({ user: request.auth?.user?.email }));
          app.get('/url', (request) => ({ url: request.auth?.scope.request.url }));
        },
        { scope: undefined },
      );
      const b = cookieClient(base);
      await signIn(b);
      // Requests are sequential: what the server built while serving one is the count's change.
      requests.reset();
      expect(await (await b.fetch('/me')).json()).toEqual({ user: EMAIL });
      expect(await (await b.fetch('/guarded')).json()).toEqual({ user: EMAIL });
      expect(requests.built).toBe(0);
      expect(await (await b.fetch('/url?q=1')).json()).toEqual({ url: `${base}/url?q=1` });
      expect(requests.built).toBe(1);
    } finally {
      requests.restore();
    }
  });

  it('forwards every Set-Cookie: a refreshed session cookie and the app’s own', async () => {
    const auth = await makeAuth('jwt', true);
    const base = await start(auth, (app) => {
      app.get('/two', (_request, reply) => {
        reply.header('set-cookie', 'theme=dark; Path=/');
        return 'ok';
      });
      app.get('/web', (_request, reply) => {
        const headers = new Headers();
        headers.append('set-cookie', 'a=1; Path=/');
        headers.append('set-cookie', 'b=2; Path=/');
        return sendWebResponse(reply, new Response('web', { headers }));
      });
    });
    const b = cookieClient(base);
    await signIn(b);
    await new Promise((r) => setTimeout(r, 1100)); // next whole second: the re-issued JWT differs
    const two = await b.fetch('/two');
    expect(two.headers.getSetCookie().map((line) => line.split('=')[0])).toEqual(['framework.session-token', 'theme']);
    const web = await b.fetch('/web');
    expect(await web.text()).toBe('web');
    expect(web.headers.getSetCookie().map((line) => line.split('=')[0])).toEqual(['framework.session-token', 'a', 'b']);
  });

  it('streams responses: the first chunk arrives before the body ends', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const base = await start(await makeAuth(), (app) => {
      app.get('/stream', (_request, reply) => {
        const body = new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(new TextEncoder().encode('first;'));
            await gate;
            controller.enqueue(new TextEncoder().encode('second'));
            controller.close();
          },
        });
        return sendWebResponse(reply, new Response(body));
      });
    });
    const res = await fetch(`${base}/stream`);
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('first;');
    release();
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toBe('second');
  });

  it('serves a custom basePath for every method, and leaves other paths to the app', async () => {
    const auth = createAuth({
      basePath: '/api/auth',
      session: { strategy: 'jwt' },
      secret: 's'.repeat(40),
      providers: [],
    });
    const base = await start(auth, (app) => {
      app.get('/api/hello', () => 'hello');
    });
    const csrf = await fetch(`${base}/api/auth/csrf`);
    expect(csrf.status).toBe(200);
    expect(await csrf.json()).toHaveProperty('csrfToken');
    const wrong = await fetch(`${base}/api/auth/csrf`, { method: 'PATCH', headers: { accept: 'application/json' } });
    expect(wrong.status).toBe(405);
    expect(await (await fetch(`${base}/api/hello`)).text()).toBe('hello');
    expect((await fetch(`${base}/auth/csrf`)).status).toBe(404);
  });

  it('keeps a connection usable after answering 413 without reading the body', async () => {
    const base = await start(await makeAuth(), () => {});
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

  it('keeps a connection usable after a 405 or 404 that never reads the body', async () => {
    const base = await start(await makeAuth(), () => {});
    const agent = singleConnectionAgent();
    try {
      const body = 'x'.repeat(512 * 1024);
      for (const [method, target, status] of [
        ['PUT', '/auth/csrf', 405],
        ['POST', '/auth/no-such-route', 404],
      ] as const) {
        for (const headers of [{ 'content-length': String(body.length) }, {}] as Record<string, string>[]) {
          const res = await rawRequest(base, agent, {
            method,
            target,
            headers: { 'content-type': 'text/plain', accept: 'application/json', ...headers },
            chunks: [body.slice(0, 1024), body.slice(1024)],
          });
          expect(res.status, `${method} ${target}`).toBe(status);
          const next = await rawRequest(base, agent, { target: '/auth/csrf', headers: { accept: 'application/json' } });
          expect([next.status, next.reusedSocket], `after ${method} ${target}`).toEqual([200, true]);
        }
      }
    } finally {
      agent.destroy();
    }
  });

  it("hands the kit request.ip: the socket's address, or the client's under Fastify's trustProxy", async () => {
    const auth = await makeAuth();
    const seen: Array<string | undefined> = [];
    const spied: Auth = {
      ...auth,
      handler: (request: Request, info?: RequestInfo) => {
        seen.push(info?.ip);
        return auth.handler(request, info);
      },
      openScope: (request: Request, info?: RequestInfo) => {
        seen.push(info?.ip);
        return auth.openScope(request, info);
      },
      run: (request, fn, info) => {
        seen.push(info?.ip);
        return auth.run(request, fn, info);
      },
    };
    const forwarded = { 'x-forwarded-for': '203.0.113.9' };
    const direct = await start(spied, routes);
    await fetch(`${direct}/auth/csrf`, { headers: forwarded });
    await fetch(`${direct}/me`, { headers: forwarded });
    expect(seen.splice(0)).toEqual(['127.0.0.1', '127.0.0.1']);
    const proxied = await start(spied, routes, {}, { trustProxy: '127.0.0.1' });
    await fetch(`${proxied}/auth/csrf`, { headers: forwarded });
    await fetch(`${proxied}/me`, { headers: forwarded });
    expect(seen.splice(0)).toEqual(['203.0.113.9', '203.0.113.9']);
  });

  it('refuses to register without an auth engine, and the guards name the missing plugin', async () => {
    const app = Fastify();
    apps.push(app);
    await expect(app.register(authPlugin, {} as AuthPluginOptions)).rejects.toThrow(/needs \{ auth \}/);
    const bare = Fastify();
    apps.push(bare);
    bare.get('/x', { preHandler: requireAuth() }, () => 'x');
    const res = await fetch(`${await bare.listen({ port: 0, host: '127.0.0.1' })}/x`);
    expect(res.status).toBe(500);
  });
});

describe('triggerRoutes', () => {
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

  it("delivers verified webhooks over the exact bytes, refuses bad signatures, and leaves the app's JSON parser to other routes", async () => {
    const received: unknown[] = [];
    const app = Fastify();
    apps.push(app);
    await app.register(authPlugin, { auth: await makeAuth(), log: () => {} });
    await app.register(triggerRoutes(runtime(received)));
    app.post('/other', (request) => request.body);
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const body = '{ "spaced" :  true }';
    const ok = await post(base, body, sign(body));
    expect(ok.status).toBe(200);
    expect(received).toEqual([{ spaced: true }]);
    expect((await post(base, body, sign('{"spaced":true}'))).status).toBe(401);
    expect((await fetch(`${base}/hooks/in`)).status).toBe(405);
    expect(await (await post(base, '{"kept":true}', 'x', '/other')).json()).toEqual({ kept: true });
  });
});
