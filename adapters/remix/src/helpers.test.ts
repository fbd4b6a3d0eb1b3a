import { describe, expect, it, vi } from 'vitest';
import { data } from 'react-router';
import { getUser, requireAuth } from '@framework/auth';
import { createAuthHelpers } from './index.js';
import { authFixture, laterSession, ORIGIN } from '@framework/testing/conformance';

const get = (path: string, headers: Record<string, string> = {}) => new Request(`${ORIGIN}${path}`, { headers });

async function thrown(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error('expected a thrown Response');
}

describe('getUser / requireUser', () => {
  it('reads the user, once per request, and enters no request scope', async () => {
    const { auth, signIn } = await authFixture();
    const run = vi.spyOn(auth, 'run');
    const open = vi.spyOn(auth, 'openScope');
    const { getUser: user, requireUser, getSession } = createAuthHelpers(auth);
    const request = get('/', { cookie: await signIn('ada@example.com') });
    expect((await user(request))?.email).toBe('ada@example.com');
    expect((await requireUser(request)).name).toBe('Ada');
    expect((await getSession(request)).session?.user.email).toBe('ada@example.com');
    expect(open).toHaveBeenCalledTimes(1);
    expect(await user(get('/'))).toBeNull();
    expect(run).not.toHaveBeenCalled();
  });

  it('throws a redirect to the sign-in page (302 GET, 303 POST), redirectTo, or the kit 401', async () => {
    const { auth } = await authFixture();
    const { requireUser } = createAuthHelpers(auth);
    const page = await thrown(requireUser(get('/protected?x=1')));
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/auth/signin?callbackUrl=%2Fprotected%3Fx%3D1');
    expect((await thrown(requireUser(new Request(`${ORIGIN}/form`, { method: 'POST' })))).status).toBe(303);
    expect((await thrown(requireUser(get('/'), { redirectTo: '/hello' }))).headers.get('location')).toBe('/hello');
    const api = await thrown(requireUser(get('/api/me', { accept: 'application/json' }), { throwError: true }));
    expect(api.status).toBe(401);
    expect(await api.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'Authentication required' } });
  });

  it('sends the cleared cookie of an expired session with the 401', async () => {
    await laterSession({ maxAge: 60 }, 'ada@example.com', 120, async (auth, cookie) => {
      const res = await thrown(
        createAuthHelpers(auth).requireUser(get('/', { cookie, accept: 'application/json' }), { throwError: true }),
      );
      expect(await res.json()).toMatchObject({ error: { code: 'SESSION_EXPIRED' } });
      expect(res.headers.get('set-cookie')).toMatch(/framework\.session-token=;.*Max-Age=0/);
    });
  });
});

describe('requireRole', () => {
  it('lets the role through and answers others with the kit 403', async () => {
    const { auth, signIn } = await authFixture({ rbac: true });
    const { requireRole } = createAuthHelpers(auth);
    expect((await requireRole(get('/admin', { cookie: await signIn('ada@example.com') }), 'admin')).email).toBe(
      'ada@example.com',
    );
    const denied = await thrown(
      requireRole(get('/admin', { cookie: await signIn('bob@example.com'), accept: 'application/json' }), ['admin']),
    );
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ error: { code: 'FORBIDDEN', message: 'Requires the role "admin"' } });
    expect((await thrown(requireRole(get('/admin'), 'admin'))).status).toBe(302);
  });

  it('follows the RBAC hierarchy, and fails closed without role definitions (no user.role fallback)', async () => {
    for (const rbac of [true, false]) {
      const { auth, signIn } = await authFixture({ rbac });
      const request = get('/posts', { cookie: await signIn('bob@example.com'), accept: 'application/json' });
      const outcome = createAuthHelpers(auth).requireRole(request, 'viewer');
      if (rbac) expect((await outcome).email).toBe('bob@example.com');
      else await expect(outcome).rejects.toThrow(/needs role definitions/);
    }
  });
});

describe('withAuth', () => {
  it('by default hands the loader user and session, reads once, and enters no request scope', async () => {
    const { auth, signIn } = await authFixture();
    const run = vi.spyOn(auth, 'run');
    const open = vi.spyOn(auth, 'openScope');
    const { withAuth, requireUser } = createAuthHelpers(auth);
    const loader = withAuth(async ({ user, request }) => {
      // The global helpers of @framework/auth need createAuthHelpers(auth, { scope: true }).
      expect(() => getUser()).toThrow(/createAuthHelpers\(auth, \{ scope: true \}\)/);
      return { arg: user?.email, guard: (await requireUser(request)).email };
    });
    const result = await loader({ request: get('/', { cookie: await signIn('bob@example.com') }) });
    expect(result.data).toEqual({ arg: 'bob@example.com', guard: 'bob@example.com' });
    expect(open).toHaveBeenCalledTimes(1);
    expect(run).not.toHaveBeenCalled();
  });

  it('with {scope: true} runs the loader in the request scope with user and session', async () => {
    const { auth, signIn } = await authFixture();
    const { withAuth } = createAuthHelpers(auth, { scope: true });
    const loader = withAuth(({ user, session }) => ({
      arg: user?.email,
      helper: getUser()?.email,
      expires: session?.expires instanceof Date,
    }));
    const result = await loader({ request: get('/', { cookie: await signIn('bob@example.com') }) });
    expect(result.data).toEqual({ arg: 'bob@example.com', helper: 'bob@example.com', expires: true });
  });

  it.each([false, true])(
    'returns refreshed cookies through plain data, data() and Responses, and on thrown Responses (scope %s)',
    async (scope) => {
      await laterSession({ maxAge: 600 }, 'ada@example.com', 60, async (auth, cookie) => {
        const { withAuth, requireUser } = createAuthHelpers(auth, { scope });
        const refreshed = (headers: Headers | HeadersInit | undefined) =>
          new Headers(headers).getSetCookie().filter((l) => l.startsWith('framework.session-token='));
        const plain = await withAuth(() => ({ ok: true }))({ request: get('/', { cookie }) });
        expect(refreshed(plain.init?.headers)).toHaveLength(1);
        const shaped = await withAuth(() => data({ ok: true }, { status: 201, headers: { 'x-kept': 'yes' } }))({
          request: get('/', { cookie }),
        });
        expect(shaped.init?.status).toBe(201);
        expect(new Headers(shaped.init?.headers).get('x-kept')).toBe('yes');
        expect(refreshed(shaped.init?.headers)).toHaveLength(1);
        const response = await withAuth(() => Response.redirect(`${ORIGIN}/next`, 302))({
          request: get('/', { cookie }),
        });
        expect(refreshed(response.headers)).toHaveLength(1);
        const out = await thrown(
          withAuth(async ({ request }) => ({ user: await requireUser(request, { redirectTo: '/x' }) }))({
            request: get('/', { cookie: 'framework.session-token=forged.x' }),
          }),
        );
        expect(out.status).toBe(302);
        expect(refreshed(out.headers)).toHaveLength(1);
      });
    },
  );

  it('answers kit errors thrown inside as the kit would, and rethrows others', async () => {
    const { auth } = await authFixture();
    const { withAuth } = createAuthHelpers(auth, { scope: true });
    const page = await thrown(withAuth(() => requireAuth())({ request: get('/private') }));
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/auth/signin?callbackUrl=%2Fprivate');
    await expect(
      withAuth(() => {
        throw new TypeError('boom');
      })({ request: get('/') }),
    ).rejects.toThrow('boom');
  });
});
