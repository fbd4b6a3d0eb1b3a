/**
 * The Fastify adapter against hostile requests over real HTTP: malformed Host and forwarded-host values,
 * absolute-form targets and methods a Web Request cannot carry get a 400 from the kit (never a 500 with a stack),
 * on every kind of route, with the connection still serving; auth bodies are bounded by the kit's streaming limit,
 * not Fastify's; the error handler hides messages and stacks whatever NODE_ENV says.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { createAuth, createMemoryAdapter, requireAuth, type Auth } from '@framework/auth';
import { looksLikeStack, rawRequest, singleConnectionAgent } from '@framework/testing/conformance';
import { authPlugin, securityHeaders, triggerRoutes, type AuthPluginOptions } from './index.js';

const apps: FastifyInstance[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
});
const env = process.env.NODE_ENV;
afterEach(() => {
  process.env.NODE_ENV = env;
});

function makeAuth(): Auth {
  return createAuth({ secret: 's'.repeat(40), adapter: createMemoryAdapter(), providers: [] });
}

/** A webhook runtime that echoes the byte length of what it was sent. */
const echoRuntime = {
  webhooks: [{ path: '/hooks/echo' }],
  async fetch(request: Request) {
    return Response.json({ bytes: (await request.arrayBuffer()).byteLength });
  },
};

async function exampleLikeApp(
  server: FastifyServerOptions = {},
  plugin: Partial<AuthPluginOptions> = {},
): Promise<string> {
  const app = Fastify({ bodyLimit: 1024, ...server });
  apps.push(app);
  app.addHook('onRequest', securityHeaders());
  await app.register(triggerRoutes(echoRuntime));
  await app.register(authPlugin, { auth: makeAuth(), scope: true, log: () => {}, ...plugin });
  app.post('/form', (request) => request.body);
  app.get('/me', () => ({ email: requireAuth({ throwError: true }).email }));
  app.get('/boom', () => {
    throw new Error('secret detail');
  });
  app.get('/status/:status', (request) => {
    throw Object.assign(new Error('secret detail'), {
      statusCode: Number((request.params as { status: string }).status),
    });
  });
  app.get('/', () => 'home');
  return app.listen({ port: 0, host: '127.0.0.1' });
}

const BAD_HOSTS = ['[', 'a b', 'example.com:99999', 'user@evil.example', 'evil.example/x', 'a\\b', 'x?y', '#'];
const ROUTES = ['/auth/session', '/me', '/', '/no-such-page', '/hooks/echo'];

describe('fastify adapter: hostile requests', () => {
  it('answers 400 INVALID_REQUEST, without a stack, to malformed Host headers on every kind of route', async () => {
    process.env.NODE_ENV = 'development';
    const base = await exampleLikeApp();
    const agent = singleConnectionAgent();
    try {
      for (const host of BAD_HOSTS) {
        for (const target of ROUTES) {
          const res = await rawRequest(base, agent, { target, headers: { host, accept: 'application/json' } });
          expect(res.status, `${target} Host: ${host}`).toBe(400);
          expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'INVALID_REQUEST' } });
          expect(looksLikeStack(res.body)).toBe(false);
        }
      }
      const ok = await rawRequest(base, agent, {
        target: '/auth/session',
        headers: { host: 'example.com:8080', accept: 'application/json' },
      });
      expect([ok.status, ok.reusedSocket]).toEqual([200, true]);
    } finally {
      agent.destroy();
    }
  });

  it('checks the forwarded host it trusts (trustProxy) like the Host header', async () => {
    const base = await exampleLikeApp({ trustProxy: '127.0.0.1' });
    const agent = singleConnectionAgent();
    try {
      for (const forwarded of BAD_HOSTS) {
        for (const target of ROUTES) {
          const res = await rawRequest(base, agent, {
            target,
            headers: { 'x-forwarded-host': forwarded, accept: 'application/json' },
          });
          expect(res.status, `${target} X-Forwarded-Host: ${forwarded}`).toBe(400);
          expect(looksLikeStack(res.body)).toBe(false);
        }
      }
    } finally {
      agent.destroy();
    }
  });

  it('accepts only origin-form targets: absolute-form gets 400 on every kind of route', async () => {
    const base = await exampleLikeApp();
    const agent = singleConnectionAgent();
    try {
      for (const target of [
        'http://evil.example/auth/callback/credentials',
        'https://evil.example/me',
        'http://127.0.0.1/auth/session',
        'http://evil.example/hooks/echo',
        'http://evil.example/form',
      ]) {
        const res = await rawRequest(base, agent, {
          method: 'POST',
          target,
          headers: { accept: 'application/json', 'content-type': 'application/json', 'content-length': '2' },
          chunks: ['{}'],
        });
        expect(res.status, target).toBe(400);
        expect(looksLikeStack(res.body)).toBe(false);
      }
      expect((await rawRequest(base, agent, { target: '/auth/csrf' })).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('answers methods a Web Request cannot carry (TRACE) with 400, not a 500', async () => {
    process.env.NODE_ENV = 'development';
    const base = await exampleLikeApp();
    const agent = singleConnectionAgent();
    try {
      for (const target of ['/auth/session', '/', '/me']) {
        const res = await rawRequest(base, agent, { method: 'TRACE', target, headers: { accept: 'application/json' } });
        expect(res.status, `TRACE ${target}`).toBe(400);
        expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'INVALID_REQUEST' } });
        expect(looksLikeStack(res.body)).toBe(false);
      }
      expect((await rawRequest(base, agent, { target: '/auth/csrf' })).reusedSocket).toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it("bounds auth bodies by the kit's streaming limit, not Fastify's bodyLimit, and keeps the connection", async () => {
    const base = await exampleLikeApp();
    const agent = singleConnectionAgent();
    try {
      // Over Fastify's 1 KiB bodyLimit, under the kit's 64 KiB: read by the kit (403 for the missing CSRF token).
      const mid = await rawRequest(base, agent, {
        method: 'POST',
        target: '/auth/callback/credentials',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        chunks: ['password=', 'p'.repeat(8 * 1024)],
      });
      expect(mid.status).toBe(403);
      expect(JSON.parse(mid.body)).toMatchObject({ error: { code: expect.stringMatching(/^CSRF_/) } });
      // Over the kit's limit: chunked (no content-length), and declared by content-length.
      const pieces = ['password=', ...Array.from({ length: 12 }, () => 'a'.repeat(16 * 1024))];
      const length = String(pieces.reduce((sum, piece) => sum + piece.length, 0));
      for (const headers of [{}, { 'content-length': length }] as Record<string, string>[]) {
        const big = await rawRequest(base, agent, {
          method: 'POST',
          target: '/auth/callback/credentials',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...headers },
          chunks: pieces,
        });
        expect(big.status).toBe(413);
        expect(JSON.parse(big.body)).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
        const next = await rawRequest(base, agent, { target: '/auth/csrf', headers: { accept: 'application/json' } });
        expect([next.status, next.reusedSocket]).toEqual([200, true]);
      }
      // Webhooks get the exact bytes, whatever Fastify's bodyLimit says.
      const hook = await rawRequest(base, agent, {
        method: 'POST',
        target: '/hooks/echo',
        headers: { 'content-type': 'application/json' },
        chunks: ['{"a":"', 'b'.repeat(4096), '"}'],
      });
      expect(JSON.parse(hook.body)).toEqual({ bytes: 4096 + 8 });
    } finally {
      agent.destroy();
    }
  });

  it("answers Fastify's 413 and an app's 500 without the message or a stack, in development too", async () => {
    process.env.NODE_ENV = 'development';
    const base = await exampleLikeApp();
    const big = await fetch(`${base}/form`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ a: 'x'.repeat(4096) }),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'The request was refused' } });
    const malformed = await fetch(`${base}/form`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{"a":',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: { code: 'INVALID_REQUEST' } });
    const foreign = await fetch(`${base}/form`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-unknown', accept: 'application/json' },
      body: 'x',
    });
    expect([foreign.status, await foreign.json()]).toMatchObject([415, { error: { code: 'UNSUPPORTED_MEDIA_TYPE' } }]);
    // A plugin's 4xx keeps its status with a registered code and the fixed message.
    for (const [status, code] of [
      [401, 'UNAUTHENTICATED'],
      [403, 'FORBIDDEN'],
      [418, 'INVALID_REQUEST'],
      [429, 'RATE_LIMITED'],
    ] as const) {
      const res = await fetch(`${base}/status/${status}`, { headers: { accept: 'application/json' } });
      expect([res.status, await res.json()]).toEqual([status, { error: { code, message: 'The request was refused' } }]);
    }
    for (const accept of ['application/json', 'text/html']) {
      const boom = await fetch(`${base}/boom`, { headers: { accept } });
      expect(boom.status).toBe(500);
      const body = await boom.text();
      expect(body).toContain('INTERNAL_ERROR');
      expect(body).not.toContain('secret detail');
      expect(looksLikeStack(body)).toBe(false);
    }
  });

  it('securityHeaders() puts the page headers on app routes, errors included', async () => {
    const base = await exampleLikeApp();
    for (const path of ['/me', '/', '/boom']) {
      const res = await fetch(`${base}${path}`, { headers: { accept: 'application/json' } });
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get('cache-control'), path).toBe('no-store');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });
});
