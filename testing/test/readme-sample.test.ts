import { afterAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { createAuth, credentials, passwordAccounts, type StorageAdapter } from '@framework/auth';
import { authMiddleware } from '@framework/auth/middleware';
import { authSession, mountAuth, requireAuth, type AuthVariables } from '@framework/hono';
import { defineTrigger } from '@framework/trigger';
import {
  createMockContext,
  createMockEnv,
  createMockMessage,
  createMockRequest,
  createTestContext,
  toQueueHandler,
} from '@framework/testing';

// The app under test: normally imported from your source tree.
function createApp(adapter: StorageAdapter) {
  const auth = createAuth({
    session: { strategy: 'database' },
    adapter,
    providers: [
      credentials({
        credentials: { email: { label: 'Email', type: 'email' } },
        authorize: passwordAccounts(adapter).authorize,
      }),
    ],
  });
  const app = new Hono<{ Variables: AuthVariables }>();
  mountAuth(app, auth);
  app.use('*', authSession(auth));
  app.get('/api/me', (c) => c.json({ name: requireAuth(c, { throwError: true }).name }));
  return { app, auth };
}

const welcomeMail = defineTrigger({
  source: { type: 'queue', name: 'welcome-mail' },
  handle: async (event, ctx) => {
    for (const message of event.messages) {
      if (typeof message.body !== 'object' || message.body === null) message.deadLetter('not an object');
      else await ctx.env.MAIL_QUEUE.send(message.body);
    }
  },
});

describe('my app', async () => {
  const ctx = await createTestContext({
    createApp: (db) => createApp(db.adapter),
    seed: async (db) => {
      await db.adapter.createUser({ id: 'ada', email: 'ada@example.com', name: 'Ada' });
    },
  });
  afterAll(() => ctx.cleanup());

  it('refuses anonymous API calls', async () => {
    expect((await ctx.fetch('/api/me')).status).toBe(401);
  });

  it('serves a signed-in user', async () => {
    const res = await ctx.withAuth({ userId: 'ada' }).fetch('/api/me');
    expect(await res.json()).toEqual({ name: 'Ada' });
  });

  it('middleware: admins only', async () => {
    const adminsOnly = authMiddleware({ authorize: (user) => user.role === 'admin' });
    const request = createMockRequest('/admin', { headers: { accept: 'application/json' } });
    const next = () => new Response('secret');
    const viewer = createMockContext({ auth: { user: { id: 'u2', role: 'viewer' } } });
    expect((await adminsOnly(request, next, viewer)).status).toBe(403);
    const admin = createMockContext({ auth: { user: { id: 'u1', role: 'admin' } } });
    expect(await (await adminsOnly(request, next, admin)).text()).toBe('secret');
  });

  it('queue consumer: sends mail, dead-letters junk', async () => {
    const env = createMockEnv();
    const good = createMockMessage({ body: { to: 'ada@example.com' } });
    const junk = createMockMessage({ body: 42 });
    await toQueueHandler(welcomeMail).queue([good, junk], env, {});
    expect(env.MAIL_QUEUE.sent).toEqual([{ body: { to: 'ada@example.com' } }]);
    expect(good.ack).toHaveBeenCalledOnce();
    expect(junk.deadLetter).toHaveBeenCalledWith('not an object');
  });
});
