/**
 * `authorize()` over a real server: 401/403 JSON with codes, browser redirects and pages, roles and permissions
 * from `createAuth({ rbac })`, closed without role definitions, in both `authSession` modes.
 */
import type { AddressInfo } from 'node:net';
import { request as httpRequest, type Server } from 'node:http';
import express, { type Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuth, createMemoryAdapter, credentials, passwordAccounts, type Auth } from '@framework/auth';
import { defineRBAC } from '@framework/auth/convention';
import { authorize, authSession, finalErrorHandler } from './index.js';

const ORIGIN = 'http://app.test';
const PASSWORD = 'correct-horse-battery';
const JSON_ACCEPT = { accept: 'application/json' };
// A browser navigating sends `Sec-Fetch-Mode: navigate` (Node's fetch would replace it with `cors`: node:http here).
const BROWSER = { accept: 'text/html', 'sec-fetch-mode': 'navigate' };

/** ada: admin; bob: editor (posts:edit, inherits viewer); carol: no role. */
async function makeAuth(withRbac: boolean): Promise<{ auth: Auth; cookies: Record<string, string> }> {
  const adapter = createMemoryAdapter();
  const passwords = passwordAccounts(adapter);
  for (const [email, role] of [
    ['ada@example.com', 'admin'],
    ['bob@example.com', 'editor'],
    ['carol@example.com', undefined],
  ] as const) {
    const user = await passwords.register({ email, password: PASSWORD, name: email.split('@')[0] });
    if (role) await adapter.updateUser(user.id, { role });
  }
  const rbac = defineRBAC({
    roles: [
      { id: 'admin', name: 'Admin', permissions: ['*'] },
      { id: 'editor', name: 'Editor', permissions: ['posts:edit'] },
      { id: 'viewer', name: 'Viewer', permissions: ['posts:read'] },
    ],
    hierarchy: { editor: ['viewer'] },
  });
  const auth = createAuth({
    session: { strategy: 'database' },
    secret: 's'.repeat(40),
    adapter,
    rateLimit: { login: false },
    ...(withRbac ? { rbac } : {}),
    providers: [
      credentials({
        credentials: { email: { label: 'E', type: 'email' }, password: { label: 'P', type: 'password' } },
        authorize: passwords.authorize,
      }),
    ],
  });
  const cookies: Record<string, string> = {};
  for (const name of ['ada', 'bob', 'carol']) cookies[name] = await signIn(auth, `${name}@example.com`);
  return { auth, cookies };
}

async function signIn(auth: Auth, email: string): Promise<string> {
  const csrf = await auth.handler(new Request(`${ORIGIN}/auth/csrf`));
  const csrfCookie = csrf.headers.getSetCookie()[0]!.split(';')[0]!;
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await auth.handler(
    new Request(`${ORIGIN}/auth/callback/credentials`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...JSON_ACCEPT, cookie: csrfCookie, origin: ORIGIN },
      body: JSON.stringify({ csrfToken, email, password: PASSWORD }),
    }),
  );
  return res.headers
    .getSetCookie()
    .find((line) => line.startsWith('framework.session-token='))!
    .split(';')[0]!;
}

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listen(app: Express): Promise<string> {
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A request over node:http, which sends the headers as given; the answer as a Web Response (no redirect followed). */
function send(url: string, method: string, headers: Record<string, string>): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const out = new Headers();
        for (const [name, value] of Object.entries(res.headers))
          for (const v of [value ?? []].flat()) out.append(name, v);
        resolve(new Response(Buffer.concat(chunks), { status: res.statusCode!, headers: out }));
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** An app with guarded routes; `ran` counts the handlers that ran, so a refusal is seen to stop the chain. */
async function serve(auth: Auth, scope: boolean) {
  const ran: string[] = [];
  const app = express();
  app.use(authSession(auth, { scope }));
  app.get('/admin', authorize({ role: 'admin' }), (_req, res) => void (ran.push('admin'), res.send('admin')));
  app.post('/admin', authorize({ role: 'admin' }), (_req, res) => void (ran.push('admin'), res.send('admin')));
  app.get('/viewer', authorize({ role: 'viewer' }), (_req, res) => void (ran.push('viewer'), res.send('viewer')));
  app.get('/edit', authorize({ permission: 'posts:edit' }), (_req, res) => void (ran.push('edit'), res.send('edit')));
  // Whether a microtask queued just before authorize() ran before the route: false when authorize passed in the tick.
  const microtaskRan = new WeakMap<object, () => boolean>();
  app.get(
    '/tick',
    (req, _res, next) => {
      let ran = false;
      queueMicrotask(() => (ran = true));
      microtaskRan.set(req, () => ran);
      next();
    },
    authorize({ role: 'admin' }),
    (req, res) => void res.json({ sameTick: !microtaskRan.get(req)!() }),
  );
  app.use('/staff', authorize({ role: 'admin', unauthorizedRedirect: '/sorry', unauthenticatedRedirect: '/login' }));
  app.get('/staff', (_req, res) => void (ran.push('staff'), res.send('staff')));
  app.use(finalErrorHandler({ log: () => {} }));
  const base = await listen(app);
  const get = (path: string, cookie: string | null, headers: Record<string, string> = JSON_ACCEPT, method = 'GET') =>
    send(`${base}${path}`, method, { ...headers, ...(cookie ? { cookie } : {}) });
  return { ran, get };
}

for (const scope of [true, false]) {
  describe(`express authorize() under authSession(auth, { scope: ${scope} })`, () => {
    let app: Awaited<ReturnType<typeof serve>>;
    let cookies: Record<string, string>;
    beforeAll(async () => {
      const made = await makeAuth(true);
      cookies = made.cookies;
      app = await serve(made.auth, scope);
    });

    it('lets a user read from the scope through in the same tick (no promise step before the route)', async () => {
      const res = await app.get('/tick', cookies.ada!);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ sameTick: true });
      expect((await app.get('/tick', cookies.carol!)).status).toBe(403);
    });

    it('signed out: JSON 401 UNAUTHENTICATED, and the route does not run', async () => {
      const res = await app.get('/admin?tab=users', null);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
      expect(app.ran).not.toContain('admin');
    });

    it('signed out in a browser: 302 (303 for a POST) to the sign-in page with callbackUrl, or the set page', async () => {
      const res = await app.get('/admin?tab=users', null, BROWSER);
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get('location')!, ORIGIN);
      expect(location.pathname).toBe('/auth/signin');
      expect(location.searchParams.get('callbackUrl')).toBe('/admin?tab=users');
      expect((await app.get('/admin', null, BROWSER, 'POST')).status).toBe(303);
      const staff = await app.get('/staff', null, BROWSER);
      expect({ status: staff.status, location: staff.headers.get('location') }).toEqual({
        status: 302,
        location: '/login',
      });
    });

    it('a role: its holder passes, the hierarchy counts, others get JSON 403 FORBIDDEN', async () => {
      expect(await (await app.get('/admin', cookies.ada!)).text()).toBe('admin');
      expect(await (await app.get('/viewer', cookies.bob!)).text()).toBe('viewer');
      for (const who of ['bob', 'carol']) {
        const res = await app.get('/admin', cookies[who]!);
        expect(res.status).toBe(403);
        expect(await res.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
      }
      expect(app.ran.filter((r) => r === 'admin')).toHaveLength(1);
    });

    it('a permission: granted by the role (or *) passes, else 403', async () => {
      expect((await app.get('/edit', cookies.bob!)).status).toBe(200);
      expect((await app.get('/edit', cookies.ada!)).status).toBe(200);
      const carol = await app.get('/edit', cookies.carol!);
      expect(carol.status).toBe(403);
      expect(await carol.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    });

    it('a browser lacking the role: a 403 page, or the unauthorizedRedirect', async () => {
      const page = await app.get('/admin', cookies.carol!, BROWSER);
      expect(page.status).toBe(403);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      const staff = await app.get('/staff', cookies.carol!, BROWSER);
      expect({ status: staff.status, location: staff.headers.get('location') }).toEqual({
        status: 302,
        location: '/sorry',
      });
      expect(app.ran).not.toContain('staff');
    });
  });
}

describe('express authorize() fails closed', () => {
  it('without rbac, even the user whose stored role matches is refused (500, no stack), and nothing runs', async () => {
    const { auth, cookies } = await makeAuth(false);
    const app = await serve(auth, true);
    for (const [path, who] of [
      ['/admin', 'ada'],
      ['/edit', 'bob'],
    ] as const) {
      const res = await app.get(path, cookies[who]!);
      expect(res.status).toBe(500);
      const body = await res.text();
      expect(body).toContain('INTERNAL_ERROR');
      expect(body).not.toMatch(/rbac|at .*\.ts/i);
    }
    expect(app.ran).toEqual([]);
  });

  it('without authSession before it: 500, the route does not run', async () => {
    const app = express();
    let ran = false;
    app.get('/admin', authorize({ role: 'admin' }), (_req, res) => void ((ran = true), res.send('x')));
    app.use(finalErrorHandler({ log: () => {} }));
    const res = await send(`${await listen(app)}/admin`, 'GET', JSON_ACCEPT);
    expect(res.status).toBe(500);
    expect(ran).toBe(false);
  });

  it('refuses bad options when created (INVALID_CONFIG)', () => {
    expect(() => authorize({ roles: [] })).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG' }));
    expect(() => authorize({ unauthorizedRedirect: 'javascript:alert(1)' })).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG' }),
    );
  });
});
