/**
 * The class "a key limited to some permissions passes every role check", behind Hono: an admin's `posts:read` key
 * is refused by the adapter's role guards (`requireRole(c)`, `hasRole(c)`, `authorize({ role })`), by the
 * dashboard and its auth view (403 `API_KEY_NOT_ALLOWED`), by the admin and organization routes and by a tenant
 * member page guarded by the organization role; the opt-ins let through exactly what they name.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { surfacesFixture, type SurfacesOptions } from '../../../core/src/plugins/api-keys/surfaces-fixture.js';
import type { DashboardOptions } from '@framework/dashboard';
import { mountDashboard } from './dashboard.js';
import { authSession, authorize, hasRole, mountAuth, requireRole, type AuthVariables } from './index.js';

async function app(options: SurfacesOptions = {}, dashboard: Partial<DashboardOptions> = {}) {
  const f = await surfacesFixture(options);
  const hono = new Hono<{ Variables: AuthVariables }>();
  mountAuth(hono, f.auth);
  mountDashboard(hono, { auth: f.auth, mode: 'production', enabled: true, ...dashboard });
  hono.use('/api/*', authSession(f.auth));
  hono.get('/api/require-role', (c) => c.json({ id: requireRole(c, 'admin').id }));
  hono.get('/api/has-role', (c) => c.json({ admin: hasRole(c, 'admin') }));
  hono.get('/api/authorize', authorize({ role: 'admin' }), (c) => c.json({ ok: true }));
  // A tenant member page: the role in the active organization (granted per request by organizations()).
  hono.get('/api/org/members', (c) => c.json({ id: requireRole(c, 'owner').id }));
  return { ...f, hono };
}

/** Status and error code (or a JSON field) of each surface for a request carrying `key`. */
async function answers(a: Awaited<ReturnType<typeof app>>, key: string) {
  const at = async (path: string) => {
    const res = await a.hono.request(`http://localhost${path}`, { headers: a.headers(key) }, {});
    const body = (await res.json().catch(() => ({}))) as { error?: { code?: string }; admin?: boolean };
    return `${res.status} ${body.error?.code ?? (body.admin !== undefined ? String(body.admin) : 'ok')}`;
  };
  return {
    requireRole: await at('/api/require-role'),
    hasRole: await at('/api/has-role'),
    authorize: await at('/api/authorize'),
    tenantPage: await at('/api/org/members'),
    dashboard: await at('/_framework/'),
    authView: await at('/_framework/auth'),
    adminRoute: await at('/auth/admin/users'),
    orgRoute: await at(`/auth/org/members?organizationId=${a.orgId}`),
  };
}

describe('an admin’s posts:read key behind Hono', () => {
  it('is refused by every role-guarded surface', async () => {
    const a = await app();
    expect(await answers(a, await a.key({ permissions: 'posts:read' }))).toStrictEqual({
      requireRole: '403 FORBIDDEN',
      hasRole: '200 false',
      authorize: '403 FORBIDDEN',
      tenantPage: '403 FORBIDDEN',
      dashboard: '403 API_KEY_NOT_ALLOWED',
      authView: '403 API_KEY_NOT_ALLOWED',
      adminRoute: '403 API_KEY_NOT_ALLOWED',
      orgRoute: '403 API_KEY_NOT_ALLOWED',
    });
  });

  it('a key of the owner’s full permissions still cannot open the dashboard, nor count organization roles', async () => {
    const a = await app();
    const seen = await answers(a, await a.key());
    expect([seen.requireRole, seen.authorize, seen.dashboard, seen.authView, seen.tenantPage]).toStrictEqual([
      '200 ok',
      '200 ok',
      '403 API_KEY_NOT_ALLOWED',
      '403 API_KEY_NOT_ALLOWED',
      '403 FORBIDDEN',
    ]);
  });

  it('a banned owner’s key answers 401 CREDENTIAL_REFUSED on the guarded routes', async () => {
    const a = await app();
    const key = await a.key({ roles: 'admin' });
    await (a.auth.extensions as { admin: { storage: { setBan(b: object): Promise<void> } } }).admin.storage.setBan({
      userId: a.userId,
      reason: null,
      expiresAt: null,
      createdAt: new Date(),
      bannedBy: 'root',
    });
    const seen = await answers(a, key);
    expect([seen.requireRole, seen.authorize, seen.tenantPage]).toStrictEqual([
      '401 CREDENTIAL_REFUSED',
      '401 CREDENTIAL_REFUSED',
      '401 CREDENTIAL_REFUSED',
    ]);
  });
});

describe('opting in behind Hono', () => {
  it('a key granted the admin role passes the role guards; the dashboard with allowApiKeys opens for it only', async () => {
    const a = await app({}, { allowApiKeys: true });
    const granted = await answers(a, await a.key({ permissions: 'posts:read', roles: 'admin' }));
    expect([
      granted.requireRole,
      granted.hasRole,
      granted.authorize,
      granted.dashboard,
      granted.authView,
    ]).toStrictEqual(['200 ok', '200 true', '200 ok', '200 ok', '200 ok']);
    const narrow = await answers(a, await a.key({ permissions: 'posts:read' }));
    expect([narrow.dashboard, narrow.authView]).toStrictEqual(['403 FORBIDDEN', '403 FORBIDDEN']);
  });

  it('organizations({ allowApiKeys }) lets a key covering the organization role open the tenant member page', async () => {
    const a = await app({ organizations: { allowApiKeys: true } });
    expect((await answers(a, await a.key({ permissions: 'org:* billing:*' }))).tenantPage).toBe('200 ok');
    expect((await answers(a, await a.key({ permissions: 'org:read' }))).tenantPage).toBe('403 FORBIDDEN');
  });
});
