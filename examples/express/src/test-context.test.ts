/**
 * The Express example under `@framework/testing`: the app on a real server (serveNodeApp) as a test context's app,
 * sessions minted by withAuth / createSignedInSession instead of walking the sign-in form.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generousLogins } from '@framework/example-shared/testing/logins';
import { createSignedInSession, createTestContext } from '@framework/testing';
import { serveNodeApp } from '@framework/testing/node';
import '@framework/testing/vitest';
import { createExpressExample } from './app.js';

describe('Express example through a test context', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'express-context-'));
  const example = await createExpressExample({
    dbPath: join(dir, 'app.db'),
    origin: 'http://localhost',
    mailLog: () => {},
    rateLimit: generousLogins(),
  });
  const ctx = await createTestContext({
    app: { ...(await serveNodeApp(example.app)), auth: example.auth, close: () => example.close() },
  });
  afterAll(async () => {
    await ctx.cleanup();
    await rm(dir, { recursive: true, force: true });
  });
  const json = { headers: { accept: 'application/json' } };

  it('sends anonymous browsers from the protected page to the sign-in page', async () => {
    expect(await ctx.fetch('/protected', { headers: { accept: 'text/html' } })).toRedirectTo('/auth/signin');
    expect((await ctx.fetch('/api/me', json)).status).toBe(401);
  });

  it('serves a user signed in by withAuth', async () => {
    const user = await example.adapter.createUser({ email: 'ada@example.com', name: 'Ada' });
    const res = await ctx.withAuth({ userId: user.id }).fetch('/api/me', json);
    expect(await res.json()).toMatchObject({ id: user.id, email: 'ada@example.com' });
  });

  it('opens the admin page to a user signed in with the admin role only', async () => {
    const target = { auth: example.auth, baseURL: ctx.origin };
    const grace = await createSignedInSession(target, { as: 'grace@example.com' });
    const denied = await ctx.fetch('/admin', { headers: { accept: 'text/html', cookie: grace.cookieHeader } });
    expect(denied.status).toBe(403);
    const root = await createSignedInSession(target, { as: 'root@example.com', roles: ['admin'] });
    const admin = await ctx.fetch('/admin', { headers: { accept: 'text/html', cookie: root.cookieHeader } });
    expect(admin.status).toBe(200);
  });
});
