import { describe, expect, it } from 'vitest';
import { authFixture, ORIGIN } from '@framework/testing/conformance';
import { createDashboardRoute } from './dashboard.js';

describe('createDashboardRoute', async () => {
  const { auth, signIn } = await authFixture({ rbac: true });
  const { loader } = createDashboardRoute({ auth, mode: 'production', enabled: true });

  it('serves an admin and refuses a non-admin with 403', async () => {
    const get = async (cookie: string) =>
      loader({ request: new Request(`${ORIGIN}/_framework/auth`, { headers: { cookie } }) });
    expect((await get(await signIn('ada@example.com'))).status).toBe(200);
    expect((await get(await signIn('bob@example.com'))).status).toBe(403);
  });

  it('takes the client IP from the load context in development', async () => {
    const dev = createDashboardRoute({ mode: 'development' });
    const request = () => new Request('http://localhost:5173/_framework/', { headers: { accept: 'text/html' } });
    expect((await dev.loader({ request: request(), context: { ip: '127.0.0.1' } })).status).toBe(200);
    expect((await dev.loader({ request: request(), context: { ip: '192.0.2.4' } })).status).toBe(403);
    expect(
      (await dev.loader({ request: new Request('http://localhost:5173/elsewhere'), context: { ip: '127.0.0.1' } }))
        .status,
    ).toBe(404);
  });
});
