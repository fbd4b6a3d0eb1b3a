/**
 * The guards and `getSession` of the Nuxt adapter in a plain h3 app over real HTTP: what each answers signed out,
 * signed in without the role and signed in with it, for API clients and browsers; that a refused route stops
 * (its body never runs); refreshed session cookies; the misconfigured cases.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defineEventHandler, type H3Event } from 'h3';
import { authFixture } from '@framework/testing/conformance';
import { countRequests } from '../../../test-support/request-count.js';
import { getSession, requireAuth, requirePermission, requireRole } from './index.js';
import { startH3App, type TestServer } from './h3-server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Counts the route bodies that ran past their guard. */
let reached = 0;

async function app(options: { rbac?: boolean; maxAge?: number } = { rbac: true }) {
  const { auth, signIn } = await authFixture(options);
  const after = (guard: (event: H3Event) => Promise<{ email?: string | null }>) =>
    defineEventHandler(async (event) => {
      const user = await guard(event);
      reached++;
      return { email: user.email };
    });
  const server = await startH3App(auth, [
    [
      'get',
      '/session',
      defineEventHandler(async (event) => ({ email: (await getSession(event)).user?.email ?? null })),
    ],
    ['get', '/page', after((event) => requireAuth(event))],
    ['post', '/page', after((event) => requireAuth(event))],
    ['get', '/elsewhere', after((event) => requireAuth(event, { redirectTo: '/login' }))],
    ['get', '/api', after((event) => requireAuth(event, { throwError: true }))],
    ['get', '/admin', after((event) => requireRole(event, 'admin'))],
    ['get', '/edit', after((event) => requirePermission(event, 'posts:edit'))],
  ]);
  servers.push(server);
  const get = (path: string, cookie?: string, accept = 'application/json') =>
    fetch(`${server.baseUrl}${path}`, { headers: { accept, ...(cookie ? { cookie } : {}) }, redirect: 'manual' });
  return { auth, signIn, server, get };
}

describe('nuxt adapter guards', () => {
  it('redirects browsers that are signed out to the sign-in page with callbackUrl, or to redirectTo', async () => {
    const { get, server } = await app();
    reached = 0;
    const page = await get('/page?tab=1', undefined, 'text/html');
    expect([page.status, page.headers.get('location')]).toEqual([302, '/auth/signin?callbackUrl=%2Fpage%3Ftab%3D1']);
    const post = await fetch(`${server.baseUrl}/page`, { method: 'POST', redirect: 'manual' });
    expect(post.status).toBe(303);
    const elsewhere = await get('/elsewhere', undefined, 'text/html');
    expect([elsewhere.status, elsewhere.headers.get('location')]).toEqual([302, '/login']);
    expect(reached).toBe(0);
  });

  it('answers API routes 401 UNAUTHENTICATED as JSON with throwError, and lets the user through', async () => {
    const { get, signIn } = await app();
    reached = 0;
    for (const accept of ['application/json', '*/*']) {
      const res = await get('/api', undefined, accept);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    }
    expect(reached).toBe(0);
    const ok = await get('/api', await signIn('carol@example.com'));
    expect([ok.status, await ok.json()]).toEqual([200, { email: 'carol@example.com' }]);
    expect(reached).toBe(1);
  });

  it('answers a missing role or permission 403 FORBIDDEN (JSON for API clients, a page for browsers)', async () => {
    const { get, signIn } = await app();
    reached = 0;
    const carol = await signIn('carol@example.com');
    const json = await get('/admin', carol);
    expect(json.status).toBe(403);
    expect(await json.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    const page = await get('/admin', carol, 'text/html');
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toContain('text/html');
    const edit = await get('/edit', carol);
    expect([edit.status, await edit.json()]).toMatchObject([403, { error: { code: 'FORBIDDEN' } }]);
    expect(reached).toBe(0);
    const signedOut = await get('/admin', undefined, 'text/html');
    expect([signedOut.status, signedOut.headers.get('location')]).toEqual([302, '/auth/signin?callbackUrl=%2Fadmin']);
    expect((await get('/admin', await signIn('ada@example.com'))).status).toBe(200);
    expect((await get('/edit', await signIn('bob@example.com'))).status).toBe(200);
    expect(reached).toBe(2);
  });

  it('fails closed (500) without role definitions', async () => {
    const { get, signIn } = await app({ rbac: false });
    const res = await get('/admin', await signIn('ada@example.com'));
    expect(res.status).toBe(500);
  });

  it('reads the session once per request and forwards the refreshed session cookie', async () => {
    const { get, signIn } = await app({ rbac: true, maxAge: 3600 });
    const cookie = await signIn('bob@example.com');
    const res = await get('/session', cookie);
    expect(await res.json()).toEqual({ email: 'bob@example.com' });
    expect(res.headers.getSetCookie().some((line) => line.startsWith('framework.session-token='))).toBe(true);
    expect(await (await get('/session')).json()).toEqual({ email: null });
  });

  it('reads the session from the Cookie header without building a Web Request; builds one when read', async () => {
    const { get, signIn } = await app();
    const cookie = await signIn('bob@example.com');
    const requests = countRequests();
    try {
      // Requests are sequential: what the server built while serving one is the count's change.
      expect(await (await get('/session', cookie)).json()).toEqual({ email: 'bob@example.com' });
      expect(requests.built).toBe(0);
      // The redirect to the sign-in page reads the request's URL.
      expect((await get('/page', undefined, 'text/html')).status).toBe(302);
      expect(requests.built).toBe(1);
    } finally {
      requests.restore();
    }
  });

  it('asks for authSession when it did not run', async () => {
    const { createApp, toNodeListener } = await import('h3');
    const { createServer } = await import('node:http');
    const bare = createApp();
    let thrown: unknown;
    bare.use(
      defineEventHandler(async (event) => {
        try {
          await getSession(event);
        } catch (error) {
          thrown = error;
        }
        return 'done';
      }),
    );
    const server = createServer(toNodeListener(bare)).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    await fetch(`http://127.0.0.1:${port}/`);
    server.close();
    expect(String(thrown)).toContain('needs authSession(auth)');
  });
});
