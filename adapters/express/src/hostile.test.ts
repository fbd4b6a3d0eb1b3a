/**
 * The Express adapter against hostile requests over real HTTP: malformed
 * Host headers and absolute-form targets get a 400 from the kit (never a 500
 * with a stack), `authErrorHandler` answers without converting the request
 * again, and `finalErrorHandler` hides stacks whatever NODE_ENV says.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type Express } from 'express';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createAuth, createMemoryAdapter, requireAuth, type Auth } from '@framework/auth';
import { looksLikeStack, rawRequest, singleConnectionAgent } from '@framework/testing/conformance';
import { authErrorHandler, authSession, authRouter, finalErrorHandler, securityHeaders } from './index.js';

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});
const env = process.env.NODE_ENV;
afterEach(() => {
  process.env.NODE_ENV = env;
});

function makeAuth(): Auth {
  return createAuth({ secret: 's'.repeat(40), adapter: createMemoryAdapter(), providers: [] });
}

async function listen(app: Express): Promise<string> {
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function exampleLikeApp(): Promise<string> {
  const auth = makeAuth();
  const app = express();
  app.use(securityHeaders());
  app.use(authRouter(auth));
  app.use(authSession(auth, { scope: true })); // /me uses requireAuth()
  app.post('/form', express.urlencoded({ extended: false, limit: '1kb' }), (req, res) => {
    res.json(req.body as unknown);
  });
  app.get('/me', (_req, res) => {
    res.json({ email: requireAuth({ throwError: true }).email });
  });
  app.get('/boom', () => {
    throw new Error('secret detail');
  });
  app.use(authErrorHandler(auth));
  app.use(finalErrorHandler({ log: () => {} }));
  return listen(app);
}

const BAD_HOSTS = ['[', 'a b', 'example.com:99999', 'user@evil.example', 'evil.example/x', 'a\\b', 'x?y', '#'];

describe('express adapter: hostile requests', () => {
  it('answers 400 INVALID_REQUEST, without a stack, to malformed Host headers on every kind of route', async () => {
    process.env.NODE_ENV = 'development';
    const base = await exampleLikeApp();
    const agent = singleConnectionAgent();
    try {
      for (const host of BAD_HOSTS) {
        for (const target of ['/auth/session', '/me', '/']) {
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
      expect(ok.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('accepts only origin-form targets: absolute-form and asterisk-form get 400', async () => {
    const base = await exampleLikeApp();
    const agent = singleConnectionAgent();
    try {
      for (const target of [
        'http://evil.example/auth/callback/credentials',
        'https://evil.example/me',
        'http://127.0.0.1/auth/session',
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
    } finally {
      agent.destroy();
    }
  });

  it("finalErrorHandler answers a body parser's 413 and an app's 500 without the stack, in development too", async () => {
    process.env.NODE_ENV = 'development';
    const base = await exampleLikeApp();
    const big = await fetch(`${base}/form`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: `a=${'x'.repeat(4096)}`,
    });
    expect(big.status).toBe(413);
    const text = await big.text();
    expect(JSON.parse(text)).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'The request was refused' } });
    const boom = await fetch(`${base}/boom`);
    expect(boom.status).toBe(500);
    const body = await boom.text();
    expect(body).not.toContain('secret detail');
    expect(looksLikeStack(body)).toBe(false);
  });

  it('securityHeaders() puts the page headers on app routes', async () => {
    const base = await exampleLikeApp();
    const res = await fetch(`${base}/me`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toMatch(/^(same-origin|no-referrer)$/);
  });
});
