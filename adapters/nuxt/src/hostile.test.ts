/**
 * The Nuxt adapter against hostile requests over real HTTP, in a plain h3 app: malformed Host and forwarded-host
 * values and methods a Web Request cannot carry get a 400 from the kit (never a 500 with a stack) on every kind of
 * route, with the connection still serving; a body the kit never read is drained, so the kept-alive connection
 * carries the next request.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { defineEventHandler } from 'h3';
import { createAuth, createMemoryAdapter } from '@framework/auth';
import { looksLikeStack, rawRequest, singleConnectionAgent } from '@framework/testing/conformance';
import { getSession, requireAuth } from './index.js';
import { startH3App, type TestServer } from './h3-server.js';

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

async function hostileApp(trustProxy = false): Promise<string> {
  const auth = createAuth({ secret: 's'.repeat(40), adapter: createMemoryAdapter(), providers: [] });
  const server = await startH3App(
    auth,
    [
      ['get', '/', defineEventHandler(async (event) => ({ user: (await getSession(event)).user }))],
      [
        'get',
        '/me',
        defineEventHandler(async (event) => ({ email: (await requireAuth(event, { throwError: true })).email })),
      ],
    ],
    trustProxy,
  );
  servers.push(server);
  return server.baseUrl;
}

const BAD_HOSTS = ['[', 'a b', 'example.com:99999', 'user@evil.example', 'evil.example/x', 'a\\b', 'x?y', '#'];
const ROUTES = ['/auth/session', '/me', '/', '/no-such-page'];

describe('nuxt adapter: hostile requests', () => {
  it('answers 400 INVALID_REQUEST, without a stack, to malformed Host headers on every kind of route', async () => {
    const base = await hostileApp();
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
      const ok = await rawRequest(base, agent, { target: '/auth/session', headers: { host: 'example.com:8080' } });
      expect([ok.status, ok.reusedSocket]).toEqual([200, true]);
    } finally {
      agent.destroy();
    }
  });

  it('checks the forwarded host it trusts (trustProxy) like the Host header, and ignores it otherwise', async () => {
    for (const trustProxy of [true, false]) {
      const base = await hostileApp(trustProxy);
      const agent = singleConnectionAgent();
      try {
        for (const forwarded of BAD_HOSTS) {
          const res = await rawRequest(base, agent, {
            target: '/',
            headers: { 'x-forwarded-host': forwarded, accept: 'application/json' },
          });
          expect(res.status, `X-Forwarded-Host: ${forwarded}, trustProxy ${trustProxy}`).toBe(trustProxy ? 400 : 200);
          expect(looksLikeStack(res.body)).toBe(false);
        }
      } finally {
        agent.destroy();
      }
    }
  });

  // Absolute-form targets and chunked bodies over the limit: the shared conformance suite (src/conformance.test.ts).
  it('answers TRACE with 400 on every kind of route, and drains a body the kit never read (405)', async () => {
    const base = await hostileApp();
    const agent = singleConnectionAgent();
    try {
      for (const target of ['/auth/session', '/', '/me']) {
        const res = await rawRequest(base, agent, { method: 'TRACE', target, headers: { accept: 'application/json' } });
        expect(res.status, `TRACE ${target}`).toBe(400);
        expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'INVALID_REQUEST' } });
      }
      // A 405 with a body the kit never reads: the body is drained and the connection serves the next request.
      const wrong = await rawRequest(base, agent, {
        method: 'PUT',
        target: '/auth/csrf',
        headers: { 'content-type': 'text/plain', 'content-length': String(32 * 1024) },
        chunks: ['x'.repeat(32 * 1024)],
      });
      expect(wrong.status).toBe(405);
      const after = await rawRequest(base, agent, { target: '/auth/csrf' });
      expect([after.status, after.reusedSocket]).toEqual([200, true]);
    } finally {
      agent.destroy();
    }
  });
});
