import { describe, expect, it } from 'vitest';
import { authFixture } from '@framework/testing/conformance';
import { dashboardHandle } from './dashboard.js';
import { fakeEvent, runHandle } from './kit-fake.js';

describe('dashboardHandle', async () => {
  const { auth, signIn } = await authFixture({ rbac: true });
  const handle = dashboardHandle({ auth, mode: 'production', enabled: true });
  const app = () => new Response('app');

  it('serves an admin, refuses a non-admin with 403, and passes other paths to resolve', async () => {
    const ada = await signIn('ada@example.com');
    const bob = await signIn('bob@example.com');
    expect((await runHandle(handle, fakeEvent('/_framework/auth', { headers: { cookie: ada } }), app)).status).toBe(
      200,
    );
    expect((await runHandle(handle, fakeEvent('/_framework/auth', { headers: { cookie: bob } }), app)).status).toBe(
      403,
    );
    expect(await (await runHandle(handle, fakeEvent('/other'), app)).text()).toBe('app');
  });

  it('in development refuses the event whose client address is not loopback', async () => {
    const dev = dashboardHandle({ mode: 'development' });
    const res = await runHandle(dev, fakeEvent('/_framework/', {}, { getClientAddress: () => '203.0.113.9' }), app);
    expect(res.status).toBe(403);
  });
});
