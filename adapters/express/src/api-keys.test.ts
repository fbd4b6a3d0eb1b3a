/**
 * `apiKeys()` behind the Express adapter, on a real server: the key's owner
 * reaches handlers limited to the key's permissions; past its budget the
 * request is answered 429 by `authErrorHandler`.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { getSession, requirePermission } from '@framework/auth';
import { isApiKeySession } from '@framework/auth/plugins/api-keys';
import { apiKeyTestApp } from '../../../core/src/plugins/api-keys/test-key.js';
import { authErrorHandler, authSession, authRouter } from './index.js';

const ORIGIN = 'http://localhost:3000';
const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('apiKeys() with Express, on a real server', () => {
  it('resolves the key to its owner with its permissions, answers 403 and 429, and ignores keys on the auth routes', async () => {
    const { auth, userId, key } = await apiKeyTestApp(ORIGIN, 'posts:read', 3);
    const app = express();
    app.use('/auth', authRouter(auth));
    app.use(authSession(auth, { scope: true }));
    app.get('/api/posts', (_req, res) => {
      res.json({ user: requirePermission('posts:read').id, apiKey: isApiKeySession(getSession()) });
    });
    app.get('/api/posts/delete', (_req, res) => {
      res.json({ user: requirePermission('posts:delete').id });
    });
    app.use(authErrorHandler(auth));
    const server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const get = (path: string) =>
      fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}`, accept: 'application/json' } });

    const ok = await get('/api/posts');
    expect([ok.status, await ok.json()]).toStrictEqual([200, { user: userId, apiKey: true }]);
    expect(ok.headers.getSetCookie()).toStrictEqual([]);
    expect((await get('/api/posts/delete')).status).toBe(403);
    expect((await get('/auth/api-keys')).status).toBe(401); // not counted on the auth routes (nor budgeted there)
    expect((await get('/api/posts')).status).toBe(200);
    const refused = await get('/api/posts');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
  });
});
