import { afterAll, describe, expect, it } from 'vitest';
import express from 'express';
import { createAuth, email, type StorageAdapter } from '@framework/auth';
import { defineRBAC } from '@framework/auth/convention';
import { authErrorHandler, authorize, authRouter, authSession } from '@framework/express';
import { createTestContext, type MailboxHooks, type TestContext } from '@framework/testing';
import { serveNodeApp } from '@framework/testing/node';
import '@framework/testing/vitest';

// The app under test: normally imported from your source tree.
function createApp(adapter: StorageAdapter, origin: string, mail: MailboxHooks) {
  const auth = createAuth({
    baseURL: origin,
    adapter,
    providers: [email({ from: 'login@example.com', sendVerificationRequest: mail.sendVerificationRequest })],
    rbac: defineRBAC({ roles: [{ id: 'admin', name: 'Admin', permissions: ['*'] }] }),
  });
  const app = express();
  app.use(authRouter(auth));
  app.use(authSession(auth));
  app.get('/me', (req, res) => void res.json({ email: req.auth?.user?.email ?? null }));
  app.get('/admin', authorize({ role: 'admin' }), (_req, res) => void res.send('admin area'));
  app.use(authErrorHandler(auth));
  return { app, auth };
}

async function submit(ctx: TestContext, path: string, fields: Record<string, string>) {
  const { csrfToken } = (await (await ctx.fetch('/auth/csrf')).json()) as { csrfToken: string };
  return ctx.fetch(path, {
    method: 'POST',
    headers: { accept: 'text/html' },
    body: new URLSearchParams({ csrfToken, ...fields }),
  });
}

describe('my Express app', async () => {
  const ctx = await createTestContext({
    createApp: async (db, { mail, origin }) => {
      const { app, auth } = createApp(db.adapter, origin, mail.hooks);
      return { ...(await serveNodeApp(app)), auth }; // a real server on port 0, closed by cleanup()
    },
    seed: async (db) => {
      await db.adapter.createUser({ id: 'root', email: 'root@example.com', roles: ['admin'] });
    },
  });
  afterAll(() => ctx.cleanup());

  it('signs in with a magic link read from the mailbox', async () => {
    await submit(ctx, '/auth/signin/email', { email: 'ada@example.com' });
    const link = new URL(ctx.mail.link({ to: 'ada@example.com', kind: 'magic-link' }));
    const signedIn = await submit(ctx, link.pathname, Object.fromEntries(link.searchParams));
    expect(signedIn).toRedirectTo('/');
    await expect(ctx).toBeSignedInAs('ada@example.com');
    expect(await (await ctx.fetch('/me')).json()).toEqual({ email: 'ada@example.com' });
  });

  it('lets admins in, and only them', async () => {
    const json = { headers: { accept: 'application/json' } };
    expect((await ctx.fetch('/admin', json)).status).toBe(403); // ada, from the test above
    expect(await (await ctx.withAuth({ userId: 'root' }).fetch('/admin')).text()).toBe('admin area');
  });
});
