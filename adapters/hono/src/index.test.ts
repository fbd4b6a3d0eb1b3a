import { describe, expect, it, vi } from 'vitest';
import { Hono } from 'hono';
import {
  createAuth,
  credentials,
  getUser,
  createMemoryAdapter,
  passwordAccounts,
  requireAuth as requireAuthInScope,
  type RequestInfo,
} from '@framework/auth';
import { authSession, clientIp, mountAuth, requireAuth, type AuthVariables } from './index.js';

type Mode = 'context' | 'scope';

async function setup(strategy: 'database' | 'jwt', maxAge?: number, mode: Mode = 'context') {
  const adapter = createMemoryAdapter();
  const passwords = passwordAccounts(adapter);
  await passwords.register({ email: 'ada@example.com', password: 'analytical-engine', name: 'Ada' });
  const auth = createAuth({
    session: { strategy, ...(maxAge ? { maxAge, updateAge: 0 } : {}) },
    secret: 's'.repeat(40),
    adapter,
    providers: [
      credentials({
        credentials: { email: { label: 'E', type: 'email' }, password: { label: 'P', type: 'password' } },
        authorize: passwords.authorize,
      }),
    ],
  });
  const app = new Hono<{ Variables: AuthVariables }>();
  mountAuth(app, auth);
  if (mode === 'scope') {
    // Opt-in AsyncLocalStorage: the global helpers of @framework/auth.
    app.use('*', authSession(auth, { scope: true }));
    app.get('/whoami', (c) => c.json({ user: c.get('user')?.email ?? null, helper: getUser()?.email ?? null }));
    app.get('/private', (c) => c.text(`hi ${requireAuthInScope().name}`));
    app.get('/api/private', (c) => c.json({ id: requireAuthInScope({ throwError: true }).id }));
  } else {
    // The default: the session bound to the context, the helpers of @framework/hono.
    app.use('*', authSession(auth));
    app.get('/whoami', (c) =>
      c.json({ user: c.get('user')?.email ?? null, helper: c.get('authScope').user?.email ?? null }),
    );
    app.get('/private', (c) => c.text(`hi ${requireAuth(c).name}`));
    app.get('/api/private', (c) => c.json({ id: requireAuth(c, { throwError: true }).id }));
  }
  return { app, auth };
}

async function signIn(app: Hono<{ Variables: AuthVariables }>): Promise<string> {
  const csrfRes = await app.request('/auth/csrf');
  const csrfCookie = csrfRes.headers.get('set-cookie')!.split(';')[0]!;
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await app.request('/auth/callback/credentials', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', cookie: csrfCookie },
    body: JSON.stringify({ csrfToken, email: 'ada@example.com', password: 'analytical-engine' }),
  });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .find((l) => l.startsWith('framework.session-token='))!
    .split(';')[0]!;
}

describe('authSession(auth) without { scope: true }', () => {
  it('asks clientIp only when the session read uses the address, and once, in both modes', async () => {
    const { auth, app: signInApp } = await setup('jwt');
    const cookie = await signIn(signInApp);
    const infos: RequestInfo[] = [];
    const openScope = auth.openScope.bind(auth);
    const run = auth.run.bind(auth);
    vi.spyOn(auth, 'openScope').mockImplementation((request, info) => {
      if (info) infos.push(info);
      return openScope(request, info);
    });
    vi.spyOn(auth, 'run').mockImplementation((request, fn, info) => {
      if (info) infos.push(info);
      return run(request, fn, info);
    });
    for (const scope of [false, true]) {
      const ipOf = vi.fn(() => '203.0.113.9');
      const app = new Hono<{ Variables: AuthVariables }>();
      app.use('*', authSession(auth, { scope, clientIp: ipOf }));
      app.get('/', (c) => c.text(requireAuth(c).id));
      expect((await app.request('/', { headers: { cookie } })).status).toBe(200);
      expect(ipOf).not.toHaveBeenCalled();
      const info = infos.at(-1)!;
      expect([info.ip, info.ip]).toEqual(['203.0.113.9', '203.0.113.9']);
      expect(ipOf).toHaveBeenCalledTimes(1);
    }
  });

  it('sets the context variables and forwards cookies without opening the AsyncLocalStorage scope', async () => {
    const { auth } = await setup('jwt');
    const app = new Hono<{ Variables: AuthVariables }>();
    mountAuth(app, auth);
    app.use('*', authSession(auth));
    app.get('/whoami', (c) => {
      let helper: string;
      try {
        helper = String(getUser());
      } catch (e) {
        helper = (e as Error).message;
      }
      return c.json({ user: c.get('user')?.email ?? null, helper });
    });
    const cookie = await signIn(app);
    const body = (await (await app.request('/whoami', { headers: { cookie } })).json()) as {
      user: string;
      helper: string;
    };
    expect(body.user).toBe('ada@example.com');
    // The global helper says what to use instead.
    expect(body.helper).toMatch(/outside a request scope/);
    expect(body.helper).toContain('requireAuth(c)');
    expect(body.helper).toContain('scope: true');
  });

  it('never lets a context-bound helper see another request: the scope is left as soon as the helper returns', async () => {
    const { auth } = await setup('jwt');
    const app = new Hono<{ Variables: AuthVariables }>();
    mountAuth(app, auth);
    app.use('*', authSession(auth));
    app.get('/slow', async (c) => {
      const before = requireAuth(c).email;
      await new Promise((resolve) => setTimeout(resolve, 20));
      let after: string;
      try {
        after = String(getUser());
      } catch {
        after = 'no scope';
      }
      return c.json({ before, after, again: requireAuth(c).email });
    });
    app.get('/anon', (c) => c.json({ user: c.get('user') }));
    const cookie = await signIn(app);
    const [slow, anon] = await Promise.all([
      app.request('/slow', { headers: { cookie } }),
      new Promise((resolve) => setTimeout(resolve, 5)).then(() => app.request('/anon')),
    ]);
    expect(await slow.json()).toEqual({ before: 'ada@example.com', after: 'no scope', again: 'ada@example.com' });
    expect(await anon.json()).toEqual({ user: null });
  });
});

describe('authSession(auth) served inside another request scope', () => {
  it("opens the request's own scope, so the global helpers never read the outer request's user", async () => {
    const { auth } = await setup('jwt');
    const inner = new Hono<{ Variables: AuthVariables }>();
    inner.use('*', authSession(auth));
    inner.get('/who', (c) => c.json({ context: c.get('user')?.email ?? null, global: getUser()?.email ?? null }));
    const outer = new Hono<{ Variables: AuthVariables }>();
    mountAuth(outer, auth);
    outer.use('*', authSession(auth, { scope: true }));
    // An anonymous sub-request, served while the signed-in outer request's scope is open.
    outer.get('/proxy', (c) => inner.fetch(new Request('http://localhost/who'), c.env));
    const cookie = await signIn(outer);
    const res = await outer.request('/proxy', { headers: { cookie } });
    expect(await res.json()).toEqual({ context: null, global: null });
  });
});

describe.each([
  ['database', 'context'],
  ['jwt', 'context'],
  ['database', 'scope'],
  ['jwt', 'scope'],
] as const)('@framework/hono with %s sessions, helpers from the %s', (strategy, mode) => {
  it('mounts the auth routes, including 405 for wrong methods', async () => {
    const { app } = await setup(strategy);
    expect((await app.request('/auth/providers')).status).toBe(200);
    expect((await app.request('/auth/providers', { method: 'PUT' })).status).toBe(405);
  });

  it('sets c.get("user") and the request scope for signed-in requests', async () => {
    const { app } = await setup(strategy, undefined, mode);
    expect(await (await app.request('/whoami')).json()).toEqual({ user: null, helper: null });
    const cookie = await signIn(app);
    expect(await (await app.request('/whoami', { headers: { cookie } })).json()).toEqual({
      user: 'ada@example.com',
      helper: 'ada@example.com',
    });
    const res = await app.request('/private', { headers: { cookie } });
    expect(await res.text()).toBe('hi Ada');
  });

  it('answers requireAuth with a redirect or a JSON 401, without logging an error', async () => {
    const { app } = await setup(strategy, undefined, mode);
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const page = await app.request('/private?x=1');
      expect(page.status).toBe(302);
      expect(page.headers.get('location')).toBe('/auth/signin?callbackUrl=%2Fprivate%3Fx%3D1');
      const api = await app.request('/api/private', { headers: { accept: 'application/json' } });
      expect(api.status).toBe(401);
      expect(await api.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'Authentication required' } });
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('forwards the cleared cookie of an expired session', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-03-01T00:00:00Z'));
      const { app } = await setup(strategy, 60, mode);
      const cookie = await signIn(app);
      vi.setSystemTime(new Date('2026-03-01T00:02:00Z'));
      const api = await app.request('/api/private', { headers: { cookie, accept: 'application/json' } });
      expect(api.status).toBe(401);
      expect(((await api.json()) as { error: { code: string } }).error.code).toBe('SESSION_EXPIRED');
      expect(api.headers.get('set-cookie')).toMatch(/framework\.session-token=;.*Max-Age=0/);
      // A database session is deleted once seen expired; the next request is simply anonymous.
      const res = await app.request('/whoami', { headers: { cookie } });
      expect(await res.json()).toEqual({ user: null, helper: null });
      expect(res.headers.get('set-cookie')).toMatch(/framework\.session-token=;.*Max-Age=0/);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('client IP for rate limits', () => {
  async function limited(
    mount: (app: Hono<{ Variables: AuthVariables }>, auth: ReturnType<typeof createAuth>) => void,
  ) {
    const adapter = createMemoryAdapter();
    const passwords = passwordAccounts(adapter);
    await passwords.register({ email: 'ada@example.com', password: 'analytical-engine' });
    const auth = createAuth({
      secret: 's'.repeat(40),
      adapter,
      providers: [
        credentials({
          credentials: { email: { label: 'E', type: 'email' }, password: { label: 'P', type: 'password' } },
          authorize: passwords.authorize,
        }),
      ],
      logger: { error: () => {}, warn: () => {} },
    });
    const app = new Hono<{ Variables: AuthVariables }>();
    mount(app, auth);
    const csrf = await app.request('/auth/csrf');
    const cookie = csrf.headers.get('set-cookie')!.split(';')[0]!;
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    return (password: string, headers: Record<string, string> = {}, env?: unknown) =>
      app.request(
        '/auth/callback/credentials',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', cookie, ...headers },
          body: JSON.stringify({ csrfToken, email: 'ada@example.com', password }),
        },
        env as never,
      );
  }

  it('takes the IP from the clientIp option (Workers: cf-connecting-ip), so failures elsewhere never lock the owner out', async () => {
    const attempt = await limited((app, auth) =>
      mountAuth(app, auth, { clientIp: (c) => c.req.header('cf-connecting-ip') }),
    );
    for (let i = 0; i < 5; i++)
      expect((await attempt('wrong-password', { 'cf-connecting-ip': '203.0.113.5' })).status).toBe(401);
    expect((await attempt('analytical-engine', { 'cf-connecting-ip': '203.0.113.5' })).status).toBe(429);
    expect((await attempt('analytical-engine', { 'cf-connecting-ip': '198.51.100.5' })).status).toBe(200);
  });

  it('reads Bun’s and Deno’s connection address by default', () => {
    const ctx = (env: unknown) => ({ env, req: { raw: new Request('http://x/') } }) as never;
    expect(clientIp(ctx({ requestIP: () => ({ address: '203.0.113.6' }) }))).toBe('203.0.113.6');
    expect(clientIp(ctx({ remoteAddr: { hostname: '203.0.113.7' } }))).toBe('203.0.113.7');
    expect(clientIp(ctx({ incoming: { socket: { remoteAddress: '203.0.113.8' } } }))).toBe('203.0.113.8');
    expect(clientIp(ctx(undefined))).toBeUndefined();
  });
});
