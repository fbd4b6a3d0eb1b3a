/**
 * `apiKeys()` behind the Hono adapter: in-process (`app.request`) and on a
 * real server (port 0), through the public subpath export.
 */
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { isApiKeySession } from '@framework/auth/plugins/api-keys';
import { apiKeyTestApp } from '../../../core/src/plugins/api-keys/test-key.js';
import { authSession, mountAuth, requirePermission, type AuthVariables } from './index.js';

async function setup() {
  const { auth, userId, key } = await apiKeyTestApp('http://localhost', 'posts:read', 3);
  const app = new Hono<{ Variables: AuthVariables }>();
  mountAuth(app, auth);
  app.use('*', authSession(auth));
  app.get('/api/posts', (c) =>
    c.json({ user: requirePermission(c, 'posts:read').id, apiKey: isApiKeySession(c.get('session')) }),
  );
  app.post('/api/posts/delete', (c) => c.json({ user: requirePermission(c, 'posts:delete').id }));
  return { app, userId, key };
}

describe('apiKeys() with Hono, in-process', () => {
  it('a key reaches handlers as its owner, limited to its permissions, sets no cookie, and is refused past its budget with 429', async () => {
    const { app, userId, key } = await setup();
    const ok = await app.request('/api/posts', { headers: { authorization: `Bearer ${key}` } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toStrictEqual({ user: userId, apiKey: true });
    expect(ok.headers.getSetCookie()).toStrictEqual([]);
    const denied = await app.request('/api/posts/delete', {
      method: 'POST',
      headers: { 'x-api-key': key, accept: 'application/json' },
    });
    expect([denied.status, ((await denied.json()) as any).error.code]).toStrictEqual([403, 'FORBIDDEN']);
    expect((await app.request('/api/posts', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200); // the 3rd of 3
    const refused = await app.request('/api/posts', {
      headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(((await refused.json()) as any).error.code).toBe('RATE_LIMITED');
    const anonymous = await app.request('/api/posts', {
      headers: { authorization: 'Bearer fk_000000000000_nope', accept: 'application/json' },
    });
    expect(anonymous.status).toBe(401);
  });
});

describe('apiKeys() with Hono, on a real server', () => {
  let server: ServerType | undefined;
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('answers key requests over HTTP, and refuses a key on the auth routes', async () => {
    const { app, userId, key } = await setup();
    server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const { port } = server.address() as { port: number };
    const base = `http://127.0.0.1:${port}`;
    const res = await fetch(`${base}/api/posts`, { headers: { authorization: `Bearer ${key}` } });
    expect([res.status, await res.json()]).toStrictEqual([200, { user: userId, apiKey: true }]);
    const list = await fetch(`${base}/auth/api-keys`, {
      headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
    });
    expect(list.status).toBe(401);
    const session = await fetch(`${base}/auth/session`, {
      headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
    });
    expect(await session.json()).toBeNull();
    // The socket address reaches the session read: past 20 invalid keys (the default budget) this client is refused.
    const wrong = {
      authorization: 'Bearer fk_000000000000_' + 'x'.repeat(key.length - 16),
      accept: 'application/json',
    };
    for (let i = 0; i < 20; i++) expect((await fetch(`${base}/api/posts`, { headers: wrong })).status).toBe(401);
    expect((await fetch(`${base}/api/posts`, { headers: wrong })).status).toBe(429);
    const blocked = await fetch(`${base}/api/posts`, {
      headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
    });
    expect([blocked.status, ((await blocked.json()) as any).error.code]).toStrictEqual([429, 'RATE_LIMITED']);
  });
});
