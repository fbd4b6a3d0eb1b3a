import { describe, expect, it, vi } from 'vitest';
import type { Auth } from '@framework/auth';
import { createAuthRoute, createWebhookRoute } from './index.js';
import { authFixture, ORIGIN } from '@framework/testing/conformance';

describe('createAuthRoute', () => {
  it('serves GET through the loader and other methods through the action, with the client IP from the context', async () => {
    const { auth } = await authFixture();
    const handler = vi.fn(auth.handler);
    const route = createAuthRoute({ ...auth, handler } as Auth);
    const providers = await route.loader({
      request: new Request(`${ORIGIN}/auth/providers`),
      context: { ip: '198.51.100.7' },
    });
    expect(providers.status).toBe(200);
    expect(handler).toHaveBeenLastCalledWith(expect.any(Request), { ip: '198.51.100.7' });
    const wrong = await route.action({ request: new Request(`${ORIGIN}/auth/csrf`, { method: 'DELETE' }) });
    expect(wrong.status).toBe(405);
    expect(handler).toHaveBeenLastCalledWith(expect.any(Request), {});
  });

  it('takes the IP from where clientIp says', async () => {
    const { auth } = await authFixture();
    const handler = vi.fn(auth.handler);
    const route = createAuthRoute({ ...auth, handler } as Auth, {
      clientIp: (args) => (args.context as { socket: string }).socket,
    });
    await route.loader({ request: new Request(`${ORIGIN}/auth/session`), context: { socket: '192.0.2.1' } });
    expect(handler).toHaveBeenLastCalledWith(expect.any(Request), { ip: '192.0.2.1' });
  });
});

describe('createWebhookRoute', () => {
  it('answers with the runtime, and 404 where no webhook owns the path', async () => {
    const fetch = vi.fn(async (request: Request) =>
      new URL(request.url).pathname === '/hooks/in' ? new Response(await request.text()) : null,
    );
    const route = createWebhookRoute(async () => ({ fetch }));
    const hook = await route.action({
      request: new Request(`${ORIGIN}/hooks/in`, { method: 'POST', body: 'raw bytes' }),
    });
    expect(await hook.text()).toBe('raw bytes');
    const none = await route.loader({ request: new Request(`${ORIGIN}/hooks/other`) });
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });
});
