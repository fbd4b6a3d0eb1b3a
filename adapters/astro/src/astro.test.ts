/**
 * The Astro adapter in process, with the context Astro builds (src/astro-fake.ts): `authMiddleware` sets
 * `locals.user` / `locals.session`, answers what the guards throw as the kit does, forwards refreshed cookies,
 * leaves the auth routes and prerendering alone; `authEndpoint` serves the kit's routes with the client address.
 * The built example (examples/astro) runs the HTTP conformance suite and a Chromium sign-in.
 */
import { describe, expect, it } from 'vitest';
import type { AuthLocals } from './index.js';
import { authFixture, ORIGIN } from '@framework/testing/conformance';
import { authEndpoint, authMiddleware, requireAuth, requirePermission, requireRole, securityHeaders } from './index.js';
import { fakeContext, runMiddleware, type FakeRoute } from './astro-fake.js';

async function setup(options: { rbac?: boolean; maxAge?: number } = { rbac: true }) {
  const { auth, signIn } = await authFixture(options);
  const middleware = authMiddleware(auth);
  const run = async (
    path: string,
    route: FakeRoute,
    init: { cookie?: string; accept?: string; method?: string } = {},
  ) => {
    const headers: Record<string, string> = { accept: init.accept ?? 'application/json' };
    if (init.cookie) headers.cookie = init.cookie;
    const request = new Request(`${ORIGIN}${path}`, { method: init.method ?? 'GET', headers });
    return runMiddleware(middleware, request, route);
  };
  return { auth, signIn, run };
}

const ok: FakeRoute = () => new Response('ok');

describe('astro authMiddleware', () => {
  it('sets locals.user and locals.session, null when signed out', async () => {
    const { run, signIn } = await setup();
    const signedOut = await run('/', ok);
    expect(signedOut.context.locals).toMatchObject({ user: null, session: null });
    const { context } = await run('/', ok, { cookie: await signIn('ada@example.com') });
    const locals = context.locals as AuthLocals;
    expect(locals.user?.email).toBe('ada@example.com');
    expect(locals.session?.expires).toBeInstanceOf(Date);
  });

  it('answers requireAuth: a redirect with callbackUrl for browsers (303 after a POST), 401 JSON with throwError', async () => {
    const { run } = await setup();
    const page = await run('/dash?tab=2', (context) => new Response(requireAuth(context).id), { accept: 'text/html' });
    expect([page.response.status, page.response.headers.get('location')]).toEqual([
      302,
      '/auth/signin?callbackUrl=%2Fdash%3Ftab%3D2',
    ]);
    const post = await run('/dash', (context) => new Response(requireAuth(context).id), { method: 'POST' });
    expect(post.response.status).toBe(303);
    const elsewhere = await run('/dash', (c) => new Response(requireAuth(c, { redirectTo: '/login' }).id));
    expect(elsewhere.response.headers.get('location')).toBe('/login');
    const api = await run('/api', (context) => Response.json(requireAuth(context, { throwError: true })));
    expect(api.response.status).toBe(401);
    expect(await api.response.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
  });

  it('answers a missing role or permission 403 FORBIDDEN: JSON for API clients, a page for browsers', async () => {
    const { run, signIn } = await setup();
    const carol = await signIn('carol@example.com');
    const json = await run('/admin', (c) => new Response(requireRole(c, 'admin').id), { cookie: carol });
    expect(json.response.status).toBe(403);
    expect(await json.response.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    const page = await run('/admin', (c) => new Response(requireRole(c, 'admin').id), {
      cookie: carol,
      accept: 'text/html',
    });
    expect([page.response.status, page.response.headers.get('content-type')]).toEqual([
      403,
      expect.stringContaining('text/html'),
    ]);
    const edit = await run('/edit', (c) => new Response(requirePermission(c, 'posts:edit').id), { cookie: carol });
    expect(edit.response.status).toBe(403);
    const bob = await signIn('bob@example.com');
    expect(
      (await run('/edit', (c) => new Response(requirePermission(c, 'posts:edit').id), { cookie: bob })).response.status,
    ).toBe(200);
    const signedOut = await run('/admin', (c) => new Response(requireRole(c, 'admin').id), { accept: 'text/html' });
    expect(signedOut.response.headers.get('location')).toBe('/auth/signin?callbackUrl=%2Fadmin');
  });

  it('lets other errors through to Astro, and fails closed without role definitions', async () => {
    const { run } = await setup();
    await expect(
      run('/boom', () => {
        throw new Error('page failed');
      }),
    ).rejects.toThrow('page failed');
    const { run: bare, signIn } = await setup({ rbac: false });
    const ada = await signIn('ada@example.com');
    await expect(bare('/admin', (c) => new Response(requireRole(c, 'admin').id), { cookie: ada })).rejects.toThrow(
      /role definitions/,
    );
  });

  it('appends the refreshed session cookie, to immutable responses too', async () => {
    const { run, signIn } = await setup({ rbac: true, maxAge: 3600 });
    const cookie = await signIn('bob@example.com');
    for (const route of [ok, () => Response.redirect(`${ORIGIN}/elsewhere`, 302)]) {
      const { response } = await run('/', route, { cookie });
      expect(response.headers.getSetCookie().some((line) => line.startsWith('framework.session-token='))).toBe(true);
    }
  });

  it('leaves the auth routes and prerendered pages alone, and the guards ask for it when it did not run', async () => {
    const { auth, signIn } = await setup();
    const cookie = await signIn('ada@example.com');
    const request = new Request(`${ORIGIN}/auth/session`, { headers: { cookie } });
    const own = await runMiddleware(authMiddleware(auth), request, ok);
    expect(own.context.locals).toEqual({});
    const built = await runMiddleware(authMiddleware(auth), new Request(`${ORIGIN}/about`), ok, {
      isPrerendered: true,
    });
    expect(built.context.locals).toEqual({});
    expect(() => requireAuth(fakeContext(new Request(`${ORIGIN}/x`)))).toThrow(/needs authMiddleware\(auth\)/);
  });
});

describe('astro authEndpoint and securityHeaders', () => {
  it("serves the kit's routes for every method", async () => {
    const { auth } = await setup();
    const { GET, ALL } = authEndpoint(() => auth);
    const csrf = await GET(fakeContext(new Request(`${ORIGIN}/auth/csrf`)));
    expect(csrf.status).toBe(200);
    expect(((await csrf.json()) as { csrfToken: string }).csrfToken).toMatch(/\S{16,}/);
    const wrong = await ALL(fakeContext(new Request(`${ORIGIN}/auth/csrf`, { method: 'DELETE' })));
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, expect.stringContaining('GET')]);
  });

  it('adds the page security headers a response lacks', async () => {
    const { response } = await runMiddleware(
      securityHeaders(),
      new Request(`${ORIGIN}/`),
      () => new Response('hi', { headers: { 'cache-control': 'max-age=60' } }),
    );
    expect(response.headers.get('cache-control')).toBe('max-age=60');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
