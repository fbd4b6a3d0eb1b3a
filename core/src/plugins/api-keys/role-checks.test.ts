/**
 * The class "a key limited to some permissions passes every role check": an admin's `posts:read` key is refused by
 * every role-guarded surface of the core (requireRole, hasRole, checkRole, authMiddleware, admin()'s isAdmin and
 * routes, organization roles, can() and routes), and passes only where the app or the key opts in (the role's full
 * permission set, an explicit `roles` grant, `allowApiKeys`).
 */
import { describe, expect, it } from 'vitest';
import { authMiddleware } from '../../middleware/auth-middleware.js';
import { checkRole } from '../../rbac/check.js';
import { hasPermission, hasRole, requireRole } from '../../rbac/helpers.js';
import { rbacSubject, type AuthScope } from '../../scope.js';
import type { User } from '../../types.js';
import type { AdminExtension } from '../admin/plugin.js';
import type { OrganizationsExtension } from '../organizations/plugin.js';
import { surfacesFixture, surfacesRbac, type SurfacesOptions } from './surfaces-fixture.js';

type Fixture = Awaited<ReturnType<typeof surfacesFixture>>;

/** What each role-guarded surface of the core answers for a request carrying `key`. */
async function surfaces(f: Fixture, key: string) {
  const ext = f.auth.extensions as unknown as { admin: AdminExtension; organizations: OrganizationsExtension };
  const inScope = await f.auth.run(f.request(key), (scope: AuthScope) => ({
    requireRole: (() => {
      try {
        requireRole('admin');
        return 'passed';
      } catch (error) {
        return (error as { code: string }).code;
      }
    })(),
    hasRole: hasRole('admin'),
    checkRole: checkRole(surfacesRbac, rbacSubject(scope), 'admin')?.code ?? 'passed',
    orgRole: hasRole('owner'),
    readPosts: hasPermission('posts:read'),
    isAdmin: ext.admin.isAdmin(scope.user as User),
  }));
  const middleware = await f.auth.run(f.request(key), () =>
    authMiddleware({ role: 'admin' })(f.request(key), async () => new Response('ok')),
  );
  const user = (await f.auth.getSession(f.request(key))).user;
  const can = await ext.organizations.can(f.request(key), user, 'billing:read');
  const route = async (path: string) => {
    const res = await f.auth.handler(f.request(key, path));
    const { error } = (await res.json()) as { error?: { code: string } };
    return res.status === 403 ? (error?.code === 'API_KEY_NOT_ALLOWED' ? 403 : -1) : res.status;
  };
  return {
    ...inScope,
    middleware: middleware.status,
    can,
    adminRoute: await route('/auth/admin/users'),
    adminPage: await route('/auth/admin'),
    orgRoute: await route(`/auth/org/members?organizationId=${f.orgId}`),
  };
}

const refusedEverywhere = {
  requireRole: 'FORBIDDEN',
  hasRole: false,
  checkRole: 'FORBIDDEN',
  orgRole: false,
  readPosts: true,
  isAdmin: false,
  middleware: 403,
  can: false,
  // The routes under basePath read the session cookie only, and tell a key so.
  adminRoute: 403,
  adminPage: 403,
  orgRoute: 403,
};

describe('an admin’s key limited to one permission, on every role-guarded surface', () => {
  it('is refused everywhere, though its owner is an admin and the organization’s owner', async () => {
    const f = await surfacesFixture();
    expect(await surfaces(f, await f.key({ permissions: 'posts:read' }))).toStrictEqual(refusedEverywhere);
    // A key limited to nothing, to the role's permissions but one, or to `:own` forms, is refused alike.
    for (const permissions of ['', 'posts:* billing:*', 'org:read:own']) {
      const seen = await surfaces(f, await f.key({ permissions }));
      expect([seen.requireRole, seen.hasRole, seen.orgRole, seen.isAdmin, seen.can, seen.middleware]).toStrictEqual([
        'FORBIDDEN',
        false,
        false,
        false,
        false,
        403,
      ]);
    }
  });

  it('the owner’s own session passes the same checks (the refusals are about the key)', async () => {
    const f = await surfacesFixture();
    const seen = await f.auth.run(
      new Request(f.request('x').url, {
        headers: { cookie: `${f.browser.cookieHeader()}; ${f.headers('x').cookie}` },
      }),
      () => [hasRole('admin'), hasRole('owner')],
    );
    expect(seen).toStrictEqual([true, true]);
  });
});

describe('opting in', () => {
  async function seen(options: SurfacesOptions, body: Record<string, string>) {
    const f = await surfacesFixture(options);
    return surfaces(f, await f.key(body));
  }

  it('a key with the role’s full permission set, or granted the role explicitly, passes the role checks', async () => {
    const bodies: Record<string, string>[] = [{ permissions: '*' }, { permissions: 'posts:read', roles: 'admin' }, {}];
    for (const body of bodies) {
      const result = await seen({}, body);
      expect([result.requireRole, result.hasRole, result.checkRole, result.middleware], JSON.stringify(body)).toEqual([
        'passed',
        true,
        'passed',
        200,
      ]);
      // The surfaces for people stay closed without their own opt-in.
      expect([result.isAdmin, result.orgRole, result.can, result.adminRoute]).toStrictEqual([false, false, false, 403]);
    }
    // The explicit grant widens role checks only, never permissions.
    expect((await seen({}, { permissions: 'posts:read', roles: 'admin' })).isAdmin).toBe(false);
  });

  it('admin({ allowApiKeys }) counts a key as an admin only when it covers the admin role', async () => {
    expect((await seen({ admin: { allowApiKeys: true } }, { permissions: 'posts:read' })).isAdmin).toBe(false);
    expect((await seen({ admin: { allowApiKeys: true } }, { permissions: '*' })).isAdmin).toBe(true);
    expect((await seen({ admin: { allowApiKeys: true } }, { permissions: '', roles: 'admin' })).isAdmin).toBe(true);
  });

  it('organizations({ allowApiKeys }) grants the organization role to a key that covers it, and can() keeps the key’s limits', async () => {
    const narrow = await seen({ organizations: { allowApiKeys: true } }, { permissions: 'posts:read' });
    expect([narrow.orgRole, narrow.can]).toStrictEqual([false, false]);
    const full = await seen({ organizations: { allowApiKeys: true } }, { permissions: 'org:* billing:*' });
    expect([full.orgRole, full.can, full.hasRole]).toStrictEqual([true, true, false]);
  });
});

describe('the routes under basePath', () => {
  it('tell a key apart from a signed-out request: 403 API_KEY_NOT_ALLOWED, 401 for an unknown key or none', async () => {
    const f = await surfacesFixture();
    const status = async (headers: Record<string, string>) => {
      const res = await f.auth.handler(new Request(f.request('x', '/auth/admin/users').url, { headers }));
      return `${res.status} ${((await res.json()) as { error: { code: string } }).error.code}`;
    };
    const key = await f.key({ roles: 'admin' });
    expect(await status({ authorization: `Bearer ${key}`, accept: 'application/json' })).toBe(
      '403 API_KEY_NOT_ALLOWED',
    );
    expect(await status({ authorization: 'Bearer fk_000000000000_nope', accept: 'application/json' })).toBe(
      '401 UNAUTHENTICATED',
    );
    expect(await status({ accept: 'application/json' })).toBe('401 UNAUTHENTICATED');
    // The key never acts there, even with a stale session cookie beside it.
    expect(
      await status({
        authorization: `Bearer ${key}`,
        cookie: 'framework.session-token=stale',
        accept: 'application/json',
      }),
    ).toBe('401 UNAUTHENTICATED');
  });
});

describe('POST /api-keys roles', () => {
  it('takes only defined roles the creator holds (with the hierarchy), and lists them', async () => {
    const f = await surfacesFixture();
    const post = async (body: Record<string, string>) => {
      const res = await f.browser.postJson('/auth/api-keys', body);
      return [res.status, ((await res.json()) as { error?: { code: string } }).error?.code ?? 'ok'];
    };
    expect(await post({ roles: 'admin' })).toStrictEqual([201, 'ok']);
    expect(await post({ roles: 'nope' })).toStrictEqual([400, 'INVALID_REQUEST']);
    expect(await post({ roles: 'admin "><script>' })).toStrictEqual([400, 'INVALID_REQUEST']);
    // The org role `owner` is held only through the active organization, not by the user: refused.
    expect(await post({ roles: 'owner' })).toStrictEqual([403, 'FORBIDDEN']);
    await f.adapter.updateUser(f.userId, { role: 'editor' });
    expect(await post({ roles: 'admin' })).toStrictEqual([403, 'FORBIDDEN']);
    const list = await f.browser.request('/auth/api-keys', { headers: { accept: 'application/json' } });
    const { keys } = (await list.json()) as { keys: { roles: string[] | null }[] };
    expect(keys.map((k) => k.roles)).toStrictEqual([['admin']]);
  });
});
