import { describe, expect, it, vi } from 'vitest';
import { triggerHandle, type WebhookRuntime } from './index.js';
import { fakeEvent, runHandle } from './kit-fake.js';

function runtime(withRoutes: boolean): WebhookRuntime & { fetch: ReturnType<typeof vi.fn> } {
  const fetch = vi.fn(async (request: Request) =>
    new URL(request.url).pathname === '/hooks/in' ? Response.json({ ok: true, got: await request.text() }) : null,
  );
  return { fetch, recordRequest: vi.fn(), ...(withRoutes ? { webhooks: [{ path: '/hooks/in' }] } : {}) };
}

describe('triggerHandle', () => {
  it('answers webhook paths with the runtime, leaves other bodies unread, reports to the tail', async () => {
    const rt = runtime(true);
    const handle = triggerHandle(() => rt);
    const hook = await runHandle(
      handle,
      fakeEvent('/hooks/in', { method: 'POST', body: '{"a":1}' }),
      () => new Response('app'),
    );
    expect(await hook.json()).toEqual({ ok: true, got: '{"a":1}' });
    const other = await runHandle(
      handle,
      fakeEvent('/form', { method: 'POST', body: 'kept' }),
      async (event) => new Response(await event.request.text(), { status: 201 }),
    );
    expect(await other.text()).toBe('kept');
    expect(rt.fetch).toHaveBeenCalledTimes(1);
    expect(rt.recordRequest).toHaveBeenCalledWith(
      expect.objectContaining({ method: 'POST', url: 'http://app.test/form', status: 201 }),
    );
  });

  it('records origin and path only: no token or code from the query string reaches the tail', async () => {
    const rt = runtime(true);
    const handle = triggerHandle(rt);
    await runHandle(
      handle,
      fakeEvent('/auth/callback/email?token=secret-token&email=a%40b.c'),
      () => new Response('ok'),
    );
    await runHandle(handle, fakeEvent('/auth/callback/github?code=secret-code&state=s'), () => new Response('ok'));
    const record = rt.recordRequest as ReturnType<typeof vi.fn>;
    const urls = record.mock.calls.map((call) => (call[0] as { url: string }).url);
    expect(urls).toEqual(['http://app.test/auth/callback/email', 'http://app.test/auth/callback/github']);
    expect(urls.join(' ')).not.toMatch(/secret|token=|code=/);
  });

  it('offers every request to a runtime that lists no routes', async () => {
    const rt = runtime(false);
    const handle = triggerHandle(rt);
    expect(await (await runHandle(handle, fakeEvent('/plain'), () => new Response('plain'))).text()).toBe('plain');
    expect(rt.fetch).toHaveBeenCalledTimes(1);
  });
});
