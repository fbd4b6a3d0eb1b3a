/**
 * `authMiddleware` with real `NextRequest`s: tokens signed by the real engine (`jwt` strategy) pass, forged,
 * expired and foreign-secret ones do not; the `database` strategy checks the cookie's shape only.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NextRequest } from 'next/server';
import { createAuth } from '@framework/auth';
import { authMiddleware, PATH_HEADER } from './index.js';

const SECRET = 'm'.repeat(40);
const ORIGIN = 'http://app.test';

function jwtEngine(secret: string | string[] = SECRET, maxAge = 3600) {
  return createAuth({ secret, session: { strategy: 'jwt', maxAge }, providers: [] });
}

function request(path: string, init: { cookie?: string; accept?: string; method?: string } = {}) {
  const headers = new Headers({ accept: init.accept ?? 'text/html' });
  if (init.cookie) headers.set('cookie', init.cookie);
  return new NextRequest(`${ORIGIN}${path}`, { headers, method: init.method ?? 'GET' });
}

const passed = (res: Response) => res.headers.get('x-middleware-next') === '1';

afterEach(() => vi.useRealTimers());

describe('authMiddleware, jwt strategy', () => {
  it('passes a token the engine signed, with the path forwarded to the server', async () => {
    const { value } = await jwtEngine().createSession({ id: 'u1', email: 'ada@example.com' });
    const res = await authMiddleware({ protect: ['/dashboard'], secret: SECRET })(
      request('/dashboard/settings?tab=2', { cookie: `framework.session-token=${value}` }),
    );
    expect(passed(res)).toBe(true);
    expect(res.headers.get(`x-middleware-request-${PATH_HEADER}`)).toBe('/dashboard/settings?tab=2');
  });

  it('sends a browser without a valid session to the sign-in page: 302 for GET, 303 otherwise, no-store', async () => {
    const guard = authMiddleware({ protect: ['/dashboard'], secret: SECRET });
    const res = await guard(request('/dashboard?x=1'));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${ORIGIN}/auth/signin?callbackUrl=%2Fdashboard%3Fx%3D1`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await guard(request('/dashboard', { method: 'POST' }))).status).toBe(303);
    const custom = authMiddleware({ protect: ['/dashboard'], secret: SECRET, signInPage: '/login' });
    expect((await custom(request('/dashboard'))).headers.get('location')).toBe(
      `${ORIGIN}/login?callbackUrl=%2Fdashboard`,
    );
  });

  it('answers API clients with the kit’s 401 JSON', async () => {
    const res = await authMiddleware({ protect: [/^\/api\//], secret: SECRET })(
      request('/api/me', { accept: 'application/json' }),
    );
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'Authentication required' } });
    const page = await authMiddleware({ protect: ['/dashboard'], secret: SECRET })(
      request('/dashboard', { accept: '*/*' }),
    );
    expect(page.status).toBe(302);
  });

  it('refuses a token under another secret, a tampered one, an expired one; accepts a rotated secret', async () => {
    const guard = authMiddleware({ protect: ['/dashboard'], secret: [SECRET, 'o'.repeat(40)] });
    const cookie = (value: string) => ({ cookie: `framework.session-token=${value}` });
    const foreign = await jwtEngine('x'.repeat(40)).createSession({ id: 'u1' });
    expect((await guard(request('/dashboard', cookie(foreign.value)))).status).toBe(302);
    const own = await jwtEngine().createSession({ id: 'u1', role: 'user' });
    const [header, , signature] = own.value.split('.');
    const forged = `${header}.${btoa(JSON.stringify({ sub: 'u1', role: 'admin', exp: 9e9 })).replace(/=+$/, '')}.${signature}`;
    expect((await guard(request('/dashboard', cookie(forged)))).status).toBe(302);
    const rotated = await jwtEngine('o'.repeat(40)).createSession({ id: 'u2' });
    expect(passed(await guard(request('/dashboard', cookie(rotated.value))))).toBe(true);
    vi.useFakeTimers({ toFake: ['Date'] });
    const old = await jwtEngine(SECRET, 60).createSession({ id: 'u3' });
    vi.setSystemTime(Date.now() + 120_000);
    expect((await guard(request('/dashboard', cookie(old.value)))).status).toBe(302);
  });

  it('guards only the listed paths and what is under them', async () => {
    const guard = authMiddleware({ protect: ['/dashboard'], secret: SECRET });
    expect(passed(await guard(request('/dashboards')))).toBe(true);
    expect(passed(await guard(request('/')))).toBe(true);
    expect((await guard(request('/dashboard'))).status).toBe(302);
  });

  it('reads the __Host- cookie on https, and refuses to start without a usable secret', async () => {
    const { value } = await jwtEngine().createSession({ id: 'u1' });
    const guard = authMiddleware({ protect: ['/'], secret: SECRET });
    const secure = new NextRequest('https://app.test/x', {
      headers: { cookie: `__Host-framework.session-token=${value}` },
    });
    expect(passed(await guard(secure))).toBe(true);
    const plainOnHttps = new NextRequest('https://app.test/x', {
      headers: { cookie: `framework.session-token=${value}` },
    });
    expect((await guard(plainOnHttps)).status).toBe(302);
    expect(() => authMiddleware({ protect: ['/'], secret: 'short' })).toThrow(/at least 32 characters/);
  });
});

describe('authMiddleware, database strategy', () => {
  it('needs a cookie of the session’s shape, without reading storage', async () => {
    const guard = authMiddleware({ protect: ['/protected'], strategy: 'database' });
    expect((await guard(request('/protected'))).status).toBe(302);
    expect((await guard(request('/protected', { cookie: 'framework.session-token=nodot' }))).status).toBe(302);
    expect(passed(await guard(request('/protected', { cookie: 'framework.session-token=abc.def' })))).toBe(true);
  });
});
