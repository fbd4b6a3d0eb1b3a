/**
 * `withAuth(handler)` and the guards inside a Route Handler, over the real engine: the kit's answers for
 * `throwError`, Next.js's redirect and forbidden() otherwise, cookies on the way out.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getUser } from '@framework/auth';
import { authFixture, laterSession, ORIGIN } from '@framework/testing/conformance';
import { createAuthHelpers } from './index.js';

const get = (path: string, headers: Record<string, string> = {}) => new Request(`${ORIGIN}${path}`, { headers });
const JSON_ACCEPT = { accept: 'application/json' };

afterEach(() => vi.unstubAllEnvs());

describe('withAuth', () => {
  it('runs the handler in the request scope; getSession and the core helpers read its request', async () => {
    const { auth, signIn } = await authFixture();
    const { withAuth, getSession } = createAuthHelpers(auth);
    const route = withAuth(async () =>
      Response.json({ mine: (await getSession()).user?.email, core: getUser()?.name }),
    );
    const res = await route(get('/api/me', { cookie: await signIn('ada@example.com') }), {});
    expect(await res.json()).toEqual({ mine: 'ada@example.com', core: 'Ada' });
  });

  it('answers requireAuth({throwError}) with the kit’s 401 JSON, and SESSION_EXPIRED with the cleared cookie', async () => {
    const { auth } = await authFixture();
    const { withAuth, requireAuth } = createAuthHelpers(auth);
    const route = withAuth(async () => Response.json({ email: (await requireAuth({ throwError: true })).email }));
    const out = await route(get('/api/me', JSON_ACCEPT), {});
    expect(out.status).toBe(401);
    expect(await out.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'Authentication required' } });
    await laterSession({ maxAge: 60 }, 'bob@example.com', 120, async (later, cookie) => {
      const helpers = createAuthHelpers(later);
      const expired = await helpers.withAuth(async () =>
        Response.json(await helpers.requireAuth({ throwError: true })),
      )(get('/api/me', { ...JSON_ACCEPT, cookie }), {});
      expect(await expired.json()).toMatchObject({ error: { code: 'SESSION_EXPIRED' } });
      expect(expired.headers.get('set-cookie')).toMatch(/framework\.session-token=;.*Max-Age=0/);
    });
  });

  it('puts a refreshed session cookie on the handler’s Response, even an immutable one', async () => {
    await laterSession({ maxAge: 600 }, 'ada@example.com', 60, async (auth, cookie) => {
      const { withAuth } = createAuthHelpers(auth);
      const res = await withAuth(() => Response.redirect(`${ORIGIN}/next`, 302))(get('/go', { cookie }), {});
      expect(res.status).toBe(302);
      expect(res.headers.getSetCookie().filter((l) => l.startsWith('framework.session-token='))).toHaveLength(1);
    });
  });

  it('redirects a signed-out visitor with Next.js’s redirect() to the sign-in page and back', async () => {
    const { auth } = await authFixture();
    const { withAuth, requireAuth } = createAuthHelpers(auth);
    const thrown = await withAuth(async () => Response.json(await requireAuth()))(get('/private?tab=2'), {}).catch(
      (error: unknown) => error,
    );
    expect((thrown as { digest?: string }).digest).toMatch(
      /^NEXT_REDIRECT;replace;\/auth\/signin\?callbackUrl=%2Fprivate%3Ftab%3D2;307;/,
    );
    const elsewhere = await withAuth(async () => Response.json(await requireAuth({ redirectTo: '/hello' })))(
      get('/x'),
      {},
    ).catch((error: unknown) => error);
    expect((elsewhere as { digest?: string }).digest).toMatch(/^NEXT_REDIRECT;replace;\/hello;307;/);
  });

  it('answers a missing role with forbidden() (403, never a redirect), or the kit’s 403 with throwError', async () => {
    vi.stubEnv('__NEXT_EXPERIMENTAL_AUTH_INTERRUPTS', 'true');
    const { auth, signIn } = await authFixture({ rbac: true });
    const { withAuth, requireRole, requirePermission } = createAuthHelpers(auth);
    const bob = { cookie: await signIn('bob@example.com'), ...JSON_ACCEPT };
    const page = await withAuth(async () => Response.json(await requireRole('admin')))(get('/admin', bob), {}).catch(
      (error: unknown) => error,
    );
    expect((page as { digest?: string }).digest).toBe('NEXT_HTTP_ERROR_FALLBACK;403');
    const api = await withAuth(async () => Response.json(await requireRole('admin', { throwError: true })))(
      get('/admin', bob),
      {},
    );
    expect(api.status).toBe(403);
    expect(await api.json()).toEqual({ error: { code: 'FORBIDDEN', message: 'Requires the role "admin"' } });
    const allowed = withAuth(async () => Response.json((await requirePermission('posts:edit')).email));
    expect(await (await allowed(get('/posts/1', bob), {})).json()).toBe('bob@example.com');
    const refused = withAuth(async () =>
      Response.json(await requirePermission(['users:delete'], { throwError: true })),
    );
    expect((await refused(get('/users/1', bob), {})).status).toBe(403);
  });

  it('rethrows errors that are not the kit’s', async () => {
    const { auth } = await authFixture();
    const route = createAuthHelpers(auth).withAuth(() => {
      throw new TypeError('boom');
    });
    await expect(route(get('/'), {})).rejects.toThrow('boom');
  });
});
