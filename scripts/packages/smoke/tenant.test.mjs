// Tenant cases through each copy of the adapter: the app's resolver and request helpers (one copy of
// @framework/auth) inside the adapter's session middleware (another copy).
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { AuthError, getUser } from '@framework/auth';
import { createMemoryTenantStorage, createTenantResolver, TenantNotFoundError } from '@framework/auth/tenant';
import { authFixture, ORIGIN } from '@framework/testing/conformance';
import { HONO_BUILDS } from './adapters.mjs';

for (const [build, { authSession, requireAuth }] of Object.entries(HONO_BUILDS)) {
  describe(`tenants through hono (${build})`, () => {
    async function setup() {
      const { auth, signIn } = await authFixture({ rbac: true });
      const tenants = createMemoryTenantStorage();
      const acme = await tenants.create({ slug: 'acme', name: 'Acme' });
      const resolver = createTenantResolver(tenants, { strategy: 'path' });
      const app = new Hono();
      // The AsyncLocalStorage scope, opened by the adapter's copy and read by the app's global helpers.
      app.use('/t/*', authSession(auth, { scope: true }));
      app.get('/t/:slug/home', async (c) => {
        const { tenant, membership } = await resolver.requireMember(c.req.raw, getUser());
        return c.json({ tenant: tenant.slug, role: membership.role, user: getUser()?.email });
      });
      // The default: the scope kept on the context, entered by the adapter's helpers.
      app.use('/c/*', authSession(auth));
      app.get('/c/me', (c) => c.json({ user: requireAuth(c, { throwError: true }).email }));
      app.onError((err, c) =>
        err instanceof AuthError ? c.json(err.toJSON(), err.status) : c.json({ error: 'unexpected' }, 500),
      );
      const get = (path, cookie) =>
        app.request(`${ORIGIN}${path}`, { headers: { accept: 'application/json', ...(cookie ? { cookie } : {}) } });
      return { auth, signIn, tenants, acme, get };
    }

    it('a member reaches their tenant, and the app sees the adapter session', async () => {
      const { auth, signIn, tenants, acme, get } = await setup();
      const cookie = await signIn('ada@example.com');
      const session = await auth.handler(new Request(`${ORIGIN}/auth/session`, { headers: { cookie } }));
      const me = await session.json();
      await tenants.addMember({ tenantId: acme.id, userId: me.user.id, role: 'owner' });
      const res = await get('/t/acme/home', cookie);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ tenant: 'acme', role: 'owner', user: 'ada@example.com' });
      expect(await (await get('/c/me', cookie)).json()).toEqual({ user: 'ada@example.com' });
      expect((await get('/c/me')).status).toBe(401);
    });

    it('an unknown tenant is 404 TENANT_NOT_FOUND, a non-member 403, a signed-out visitor 401', async () => {
      const { signIn, get } = await setup();
      const cookie = await signIn('bob@example.com');
      const missing = await get('/t/nope/home', cookie);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ error: { code: 'TENANT_NOT_FOUND' } });
      expect((await get('/t/acme/home', cookie)).status).toBe(403);
      expect((await get('/t/acme/home')).status).toBe(401);
    });

    it('tenant errors keep one identity across copies', () => {
      expect(new TenantNotFoundError() instanceof AuthError).toBe(true);
    });
  });
}
