import { describe, expect, it, vi } from 'vitest';
import { Hono } from 'hono';
import { createAuth, credentials, passwordAccounts, type StorageAdapter } from '@framework/auth';
import { authSession, mountAuth, requireAuth, type AuthVariables } from '@framework/hono';
import { createTriggerRuntime, defineTrigger } from '@framework/trigger';
import { createTestContext } from './create-test-context.js';

const SECRET = 'testing-secret-testing-secret-0123456789';
const quiet = { error: () => {}, warn: () => {} };

function buildApp(adapter: StorageAdapter, strategy: 'database' | 'jwt') {
  const auth = createAuth({
    session: { strategy },
    secret: SECRET,
    adapter,
    logger: quiet,
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
  app.get('/me', (c) => c.json({ id: requireAuth(c, { throwError: true }).id }));
  app.get('/set', (c) => {
    c.header('set-cookie', 'visits=1; Path=/');
    return c.text('ok');
  });
  app.get('/echo-cookie', (c) => c.text(c.req.header('cookie') ?? ''));
  return { app, auth };
}

describe('createTestContext', () => {
  it('runs seed on a fresh migrated database before the first request', async () => {
    const order: string[] = [];
    const ctx = await createTestContext({
      createApp: (db) => {
        order.push('app');
        return (request: Request) => {
          order.push('request');
          return db.adapter
            .getUserByEmail('ada@example.com')
            .then((user) => Response.json({ path: new URL(request.url).pathname, user: user?.id ?? null }));
        };
      },
      seed: async (db) => {
        order.push('seed');
        await db.adapter.createUser({ id: 'u1', email: 'ada@example.com' });
      },
    });
    expect(await (await ctx.fetch('/hello')).json()).toEqual({ path: '/hello', user: 'u1' });
    expect(order).toEqual(['app', 'seed', 'request']);
    await ctx.cleanup();
  });

  it('gives every context its own database', async () => {
    const first = await createTestContext({ seed: (db) => db.adapter.createUser({ id: 'only-here' }) });
    const second = await createTestContext();
    expect(await first.db.adapter.getUser('only-here')).not.toBeNull();
    expect(await second.db.adapter.getUser('only-here')).toBeNull();
    await Promise.all([first.cleanup(), second.cleanup()]);
  });

  it('keeps cookies between requests and sends them back', async () => {
    const ctx = await createTestContext({ createApp: (db) => buildApp(db.adapter, 'database') });
    expect(await (await ctx.fetch('/echo-cookie')).text()).toBe('');
    await ctx.fetch('/set');
    expect(ctx.cookies.get('visits')).toBe('1');
    expect(await (await ctx.fetch('/echo-cookie', { headers: { cookie: 'extra=2' } })).text()).toBe(
      'extra=2; visits=1',
    );
    await ctx.cleanup();
  });

  for (const strategy of ['database', 'jwt'] as const) {
    it(`withAuth carries a real ${strategy} session that the kit reads and can end`, async () => {
      const ctx = await createTestContext({
        createApp: (db) => buildApp(db.adapter, strategy),
        seed: (db) => db.adapter.createUser({ id: 'u1', email: 'ada@example.com', name: 'Ada' }),
      });
      expect((await ctx.fetch('/me')).status).toBe(401);
      const ada = ctx.withAuth({ userId: 'u1' });
      const me = await ada.fetch('/me');
      expect(me.status).toBe(200);
      expect(await me.json()).toEqual({ id: 'u1' });
      const session = (await (
        await ada.fetch('/auth/session', { headers: { accept: 'application/json' } })
      ).json()) as { user: { email: string } };
      expect(session.user.email).toBe('ada@example.com');
      // the anonymous context stays anonymous
      expect((await ctx.fetch('/me')).status).toBe(401);
      // the cookie is the kit's: a tampered copy is refused
      const value = ada.cookies.get('framework.session-token')!;
      const tampered = await ctx.fetch('/me', {
        headers: { cookie: `framework.session-token=${value.slice(0, -2)}xx` },
      });
      expect(tampered.status).toBe(401);
      await ctx.cleanup();
    });
  }

  it('withAuth stores a database session through the adapter', async () => {
    const ctx = await createTestContext({
      createApp: (db) => buildApp(db.adapter, 'database'),
      seed: (db) => db.adapter.createUser({ id: 'u1' }),
    });
    const ada = ctx.withAuth({ userId: 'u1' });
    await ada.fetch('/me');
    const [id] = ada.cookies.get('framework.session-token')!.split('.');
    expect((await ctx.db.adapter.getSessionAndUser(id!))?.user.id).toBe('u1');
    await ctx.cleanup();
  });

  it('withAuth reports a user missing from storage, and an app without auth', async () => {
    const ctx = await createTestContext({ createApp: (db) => buildApp(db.adapter, 'database') });
    await expect(ctx.withAuth({ userId: 'ghost' }).fetch('/me')).rejects.toThrow(/no user with id "ghost"/);
    await ctx.cleanup();
    const plain = await createTestContext({ app: () => new Response('hi') });
    expect(() => plain.withAuth({ userId: 'u1' })).toThrow(/no kit auth/);
    expect(() => plain.withAuth({ userId: '' })).toThrow(TypeError);
    await plain.cleanup();
  });

  it('throws a clear error on fetch after cleanup, and cleanup is idempotent', async () => {
    const ctx = await createTestContext();
    await ctx.cleanup();
    await ctx.cleanup();
    await expect(ctx.fetch('/auth/session')).rejects.toThrow(
      'TestContext.fetch("/auth/session") was called after cleanup()',
    );
    expect(() => ctx.withAuth({ userId: 'u1' })).toThrow(/after cleanup/);
  });

  it('serves the kit auth alone by default', async () => {
    const ctx = await createTestContext({ seed: (db) => db.adapter.createUser({ id: 'u1', email: 'x@example.com' }) });
    const res = await ctx
      .withAuth({ userId: 'u1' })
      .fetch('/auth/session', { headers: { accept: 'application/json' } });
    expect(await res.json()).toMatchObject({ user: { id: 'u1', email: 'x@example.com' } });
    await ctx.cleanup();
  });

  it('starts a trigger runtime, serves its webhooks, and stops it on cleanup', async () => {
    const seen: unknown[] = [];
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        hook: defineTrigger({
          source: { type: 'webhook', path: '/hooks/in' },
          handle: (event) => void seen.push(event.payload),
        }),
      },
    });
    const start = vi.spyOn(runtime, 'start');
    const stop = vi.spyOn(runtime, 'stop');
    const ctx = await createTestContext({ app: runtime });
    expect(start).toHaveBeenCalledOnce();
    const res = await ctx.fetch('/hooks/in', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(res.status).toBe(200);
    expect(seen).toEqual([{ a: 1 }]);
    expect((await ctx.fetch('/elsewhere')).status).toBe(404);
    await ctx.cleanup();
    expect(stop).toHaveBeenCalledOnce();
  });

  it('waits for waitUntil work and closes the bundle on cleanup', async () => {
    const close = vi.fn();
    let finished = false;
    const ctx = await createTestContext({
      app: {
        app: {
          fetch: (_request: Request, env: { greeting: string }, executionContext) => {
            executionContext?.waitUntil(
              new Promise((resolve) => setTimeout(resolve, 20)).then(() => (finished = true)),
            );
            return new Response(env.greeting);
          },
        },
        close,
      },
      env: { greeting: 'hello' },
    });
    expect(await (await ctx.fetch('/')).text()).toBe('hello');
    await ctx.cleanup();
    expect(finished).toBe(true);
    expect(close).toHaveBeenCalledOnce();
  });

  it('closes what it opened when seed throws', async () => {
    const close = vi.fn();
    await expect(
      createTestContext({
        app: { app: () => new Response(), close },
        seed: () => Promise.reject(new Error('bad seed')),
      }),
    ).rejects.toThrow('bad seed');
    expect(close).toHaveBeenCalledOnce();
  });

  it('refuses unknown app shapes and both app and createApp', async () => {
    await expect(createTestContext({ app: {} as never })).rejects.toThrow(TypeError);
    await expect(
      createTestContext({ app: () => new Response(), createApp: () => () => new Response() }),
    ).rejects.toThrow(/not both/);
  });
});
