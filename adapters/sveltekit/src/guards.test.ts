import { describe, expect, it } from 'vitest';
import { authHandle, requireRole, requireUser } from './index.js';
import { authFixture } from '@framework/testing/conformance';
import { fakeEvent, runHandle } from './kit-fake.js';

const json = { accept: 'application/json' };
const html = { accept: 'text/html' };

describe('requireUser', () => {
  it('redirects signed-out visitors to the sign-in page with callbackUrl (302 for GET, 303 for actions)', async () => {
    const { auth } = await authFixture();
    const handle = authHandle(auth, { building: false });
    const route = async (event: Parameters<typeof requireUser>[0]) => new Response((await requireUser(event)).email);
    const page = await runHandle(handle, fakeEvent('/dashboard?tab=2'), route);
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/auth/signin?callbackUrl=%2Fdashboard%3Ftab%3D2');
    const action = await runHandle(handle, fakeEvent('/dashboard', { method: 'POST' }), route);
    expect(action.status).toBe(303);
    const elsewhere = await runHandle(
      handle,
      fakeEvent('/dashboard'),
      async (event) => new Response((await requireUser(event, { redirectTo: '/welcome' })).id),
    );
    expect(elsewhere.headers.get('location')).toBe('/welcome');
  });

  it.each([{}, { scope: true }, { lazy: true }])('returns the user when signed in (%o)', async (mode) => {
    const { auth, signIn } = await authFixture();
    const cookie = await signIn('ada@example.com');
    const res = await runHandle(
      authHandle(auth, { building: false, ...mode }),
      fakeEvent('/', { headers: { cookie } }),
      async (event) => new Response((await requireUser(event)).name),
    );
    expect(await res.text()).toBe('Ada');
  });

  it('with throwError answers JSON clients with the kit error, others with SvelteKit’s', async () => {
    const { auth } = await authFixture();
    const handle = authHandle(auth, { building: false });
    const route = async (event: Parameters<typeof requireUser>[0]) =>
      Response.json(await requireUser(event, { throwError: true }));
    const api = await runHandle(handle, fakeEvent('/api/me', { headers: json }), route);
    expect(api.status).toBe(401);
    expect(await api.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'Authentication required' } });
    const page = await runHandle(handle, fakeEvent('/api/me', { headers: html }), route);
    expect(page.status).toBe(401);
    expect(await page.json()).toEqual({ message: 'Authentication required', code: 'UNAUTHENTICATED' });
    const data = await runHandle(handle, fakeEvent('/api/me', { headers: json }, { isDataRequest: true }), route);
    expect(await data.json()).toEqual({ message: 'Authentication required', code: 'UNAUTHENTICATED' });
  });

  it('throws a clear error without authHandle', async () => {
    await expect(requireUser(fakeEvent('/'))).rejects.toThrow(/requireUser\(\) needs authHandle/);
  });
});

describe('requireRole', () => {
  it('lets the role through, refuses others with 403 FORBIDDEN, redirects the signed out', async () => {
    const { auth, signIn } = await authFixture({ rbac: true });
    const handle = authHandle(auth, { building: false });
    const route = async (event: Parameters<typeof requireUser>[0]) =>
      new Response(`admin ${(await requireRole(event, 'admin')).email}`);
    const admin = await runHandle(
      handle,
      fakeEvent('/admin', { headers: { cookie: await signIn('ada@example.com') } }),
      route,
    );
    expect(await admin.text()).toBe('admin ada@example.com');
    const editor = await runHandle(
      handle,
      fakeEvent('/admin', { headers: { ...json, cookie: await signIn('bob@example.com') } }),
      route,
    );
    expect(editor.status).toBe(403);
    expect(await editor.json()).toEqual({ error: { code: 'FORBIDDEN', message: 'Requires the role "admin"' } });
    expect((await runHandle(handle, fakeEvent('/admin'), route)).status).toBe(302);
  });

  it('follows the RBAC hierarchy, and fails closed without role definitions (no user.role fallback)', async () => {
    for (const rbac of [true, false]) {
      const { auth, signIn } = await authFixture({ rbac });
      const cookie = await signIn('bob@example.com');
      const outcome = runHandle(
        authHandle(auth, { building: false }),
        fakeEvent('/posts', { headers: { ...json, cookie } }),
        async (event) => new Response((await requireRole(event, ['viewer'])).email),
      );
      if (rbac) expect((await outcome).status).toBe(200);
      else await expect(outcome).rejects.toThrow(/needs role definitions/);
    }
  });
});
