import { describe, expect, it, vi } from 'vitest';
import type { Auth } from '@framework/auth';
import { authFixture, ORIGIN } from '@framework/testing/conformance';
import { authRoute } from './index.js';

describe('authRoute', () => {
  it('serves every method through auth.handler: JSON routes, the kit’s 405 with Allow, the client IP', async () => {
    const { auth } = await authFixture();
    const handler = vi.fn(auth.handler);
    const route = authRoute({ ...auth, handler } as Auth, {
      clientIp: (request) => request.headers.get('x-real-ip') ?? undefined,
    });
    const providers = await route.GET(
      new Request(`${ORIGIN}/auth/providers`, { headers: { 'x-real-ip': '198.51.100.7' } }),
    );
    expect(((await providers.json()) as Record<string, unknown>).credentials).toBeDefined();
    expect(handler).toHaveBeenLastCalledWith(expect.any(Request), { ip: '198.51.100.7' });
    const wrong = await route.DELETE(new Request(`${ORIGIN}/auth/csrf`, { method: 'DELETE' }));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toContain('GET');
    expect(handler).toHaveBeenLastCalledWith(expect.any(Request), {});
    expect(Object.keys(route).sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
  });

  it('creates a lazy engine once, on the first request, and again after a failed start', async () => {
    const { auth } = await authFixture();
    let calls = 0;
    const route = authRoute(async () => {
      calls++;
      if (calls === 1) throw new Error('database not ready');
      return auth;
    });
    expect(calls).toBe(0);
    await expect(route.GET(new Request(`${ORIGIN}/auth/csrf`))).rejects.toThrow('database not ready');
    expect((await route.GET(new Request(`${ORIGIN}/auth/csrf`))).status).toBe(200);
    expect((await route.POST(new Request(`${ORIGIN}/auth/csrf`, { method: 'POST' }))).status).toBe(405);
    expect(calls).toBe(2);
  });
});
