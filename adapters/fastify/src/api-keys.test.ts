/**
 * `apiKeys()` behind the Fastify adapter, on a real server: the key's owner reaches handlers and `authorize()`
 * guards limited to the key's permissions; past its budget the request is answered 429 by the error handler.
 */
import { afterAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { getSession, requirePermission } from '@framework/auth';
import { isApiKeySession } from '@framework/auth/plugins/api-keys';
import { apiKeyTestApp } from '../../../core/src/plugins/api-keys/test-key.js';
import { authPlugin, authorize } from './index.js';

const ORIGIN = 'http://localhost:3000';
const apps: FastifyInstance[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
});

describe('apiKeys() with Fastify, on a real server', () => {
  it('resolves the key to its owner with its permissions, answers 403 and 429, and ignores keys on the auth routes', async () => {
    const { auth, userId, key } = await apiKeyTestApp(ORIGIN, 'posts:read', 4);
    const app = Fastify();
    apps.push(app);
    await app.register(authPlugin, { auth, scope: true, log: () => {} });
    app.get('/api/posts', () => ({ user: requirePermission('posts:read').id, apiKey: isApiKeySession(getSession()) }));
    app.get('/api/posts/delete', () => ({ user: requirePermission('posts:delete').id }));
    app.get('/api/posts/purge', { preHandler: authorize({ permission: 'posts:delete' }) }, () => 'purged');
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const get = (path: string) =>
      fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}`, accept: 'application/json' } });

    const ok = await get('/api/posts');
    expect([ok.status, await ok.json()]).toStrictEqual([200, { user: userId, apiKey: true }]);
    expect(ok.headers.getSetCookie()).toStrictEqual([]);
    expect((await get('/api/posts/delete')).status).toBe(403);
    const guarded = await get('/api/posts/purge');
    expect([guarded.status, await guarded.json()]).toMatchObject([403, { error: { code: 'FORBIDDEN' } }]);
    expect((await get('/auth/api-keys')).status).toBe(401); // not counted on the auth routes (nor budgeted there)
    expect((await get('/api/posts')).status).toBe(200);
    const refused = await get('/api/posts');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
  });
});
