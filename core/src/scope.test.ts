import { describe, expect, it, vi } from 'vitest';
import { getSession, getUser, isAuthenticated, requireAuth } from './scope.js';
import { AuthRedirect, SessionExpiredError, UnauthenticatedError } from './errors.js';
import { makeFixture, ORIGIN } from './testing/fixtures.js';

describe('request-scoped helpers', async () => {
  const { auth, client } = await makeFixture('jwt', { session: { strategy: 'jwt', maxAge: 60 } });

  it('throw a clear error outside a request scope', () => {
    expect(() => getUser()).toThrow(/getUser\(\) was called outside a request scope/);
    expect(() => requireAuth()).toThrow(/requireAuth\(\) was called outside a request scope/);
  });

  it('read the signed-in user and session inside auth.run', async () => {
    const c = client();
    await c.signIn();
    const req = new Request(`${ORIGIN}/x`, { headers: { cookie: c.cookieHeader() } });
    const out = await auth.run(req, async () => {
      await new Promise((r) => setTimeout(r, 1));
      return { user: getUser(), session: getSession(), authed: isAuthenticated(), required: requireAuth() };
    });
    expect(out.user?.email).toBe('ada@example.com');
    expect(out.session?.user.email).toBe('ada@example.com');
    expect(out.authed).toBe(true);
    expect(out.required).toBe(out.user);
  });

  it('requireAuth redirects to the sign-in page with callbackUrl, or to redirectTo', async () => {
    const req = new Request(`${ORIGIN}/private/page?x=1`);
    const err = await auth.run(req, () => {
      try {
        requireAuth();
      } catch (e) {
        return e;
      }
    });
    expect(err).toBeInstanceOf(AuthRedirect);
    expect((err as AuthRedirect).location).toBe('/auth/signin?callbackUrl=%2Fprivate%2Fpage%3Fx%3D1');
    const res = auth.toResponse(err, req)!;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/auth/signin?callbackUrl=%2Fprivate%2Fpage%3Fx%3D1');

    const custom = await auth.run(req, () => {
      try {
        requireAuth({ redirectTo: '/login' });
      } catch (e) {
        return e as AuthRedirect;
      }
    });
    expect(custom?.location).toBe('/login');
  });

  it('requireAuth({throwError}) throws UnauthenticatedError, or SessionExpiredError for an expired cookie', async () => {
    const anon = new Request(`${ORIGIN}/api`, { headers: { accept: 'application/json' } });
    const e1 = await auth.run(anon, () => {
      try {
        requireAuth({ throwError: true });
      } catch (e) {
        return e;
      }
    });
    expect(e1).toBeInstanceOf(UnauthenticatedError);
    expect(e1).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
    const res = auth.toResponse(e1, anon)!;
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'Authentication required' } });

    const c = client();
    await c.signIn();
    // Move the clock past maxAge (60 s).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    try {
      const expiredReq = new Request(`${ORIGIN}/api`, { headers: { cookie: c.cookieHeader() } });
      const e2 = await auth.run(expiredReq, () => {
        try {
          requireAuth({ throwError: true });
        } catch (e) {
          return e;
        }
      });
      expect(e2).toBeInstanceOf(SessionExpiredError);
      expect(e2).toMatchObject({ code: 'SESSION_EXPIRED', status: 401 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('toResponse ignores foreign errors', () => {
    expect(auth.toResponse(new Error('x'), new Request(`${ORIGIN}/`))).toBeNull();
  });
});
