import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { createAuth, credentials, createMemoryAdapter, passwordAccounts, type Auth } from '@framework/auth';
import { defineRBAC } from '@framework/auth/convention';
import {
  authSession,
  hasPermission,
  hasRole,
  mountAuth,
  requirePermission,
  requireRole,
  type AuthVariables,
} from './index.js';
import { authorize } from './middleware.js';

const rbac = defineRBAC({
  roles: [
    { id: 'admin', name: 'Admin', permissions: ['*'] },
    { id: 'editor', name: 'Editor', permissions: ['posts:edit'] },
    { id: 'viewer', name: 'Viewer', permissions: ['posts:read'] },
  ],
  hierarchy: { editor: ['viewer'] },
});

const PASSWORD = 'correct-horse-battery';

/** A real auth with two password users; `role` is stored on the user record. */
async function setup(options: { scope?: boolean; updateAge?: number; grant?: string } = {}) {
  const adapter = createMemoryAdapter();
  const passwords = passwordAccounts(adapter);
  for (const [email, role] of [
    ['admin@example.com', 'admin'],
    ['ed@example.com', 'editor'],
  ] as const) {
    const user = await passwords.register({ email, password: PASSWORD });
    await adapter.updateUser(user.id, { role });
  }
  const auth: Auth = createAuth({
    session: { strategy: 'jwt', ...(options.updateAge === undefined ? {} : { updateAge: options.updateAge }) },
    secret: 's'.repeat(40),
    adapter,
    providers: [
      credentials({
        credentials: { email: { label: 'E', type: 'email' }, password: { label: 'P', type: 'password' } },
        authorize: passwords.authorize,
      }),
    ],
    rbac,
    // A plugin granting a role for this request only (as organizations() does for the active organization).
    plugins: options.grant
      ? [
          {
            id: 'grant',
            hooks: { requestRoles: (request: Request) => (request.headers.get('x-grant') ? [options.grant!] : []) },
          },
        ]
      : [],
  });
  const app = new Hono<{ Variables: AuthVariables }>();
  mountAuth(app, auth);
  app.use('*', authSession(auth, options.scope === undefined ? {} : { scope: options.scope }));
  return { app };
}

async function signIn(app: Hono<{ Variables: AuthVariables }>, email: string): Promise<string> {
  const csrf = await app.request('/auth/csrf');
  const csrfCookie = csrf.headers.get('set-cookie')!.split(';')[0]!;
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await app.request('/auth/callback/credentials', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', cookie: csrfCookie },
    body: JSON.stringify({ csrfToken, email, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .find((l) => l.startsWith('framework.session-token='))!
    .split(';')[0]!;
}

const json = { accept: 'application/json' };
const html = { accept: 'text/html' };

describe.each([
  ['the context (default)', undefined],
  ['AsyncLocalStorage (scope: true)', true],
] as const)('authorize (Hono), scope from %s', (_mode, scope) => {
  const setupIn = (options: { updateAge?: number; grant?: string } = {}) =>
    setup(scope === undefined ? options : { ...options, scope });

  it('lets a user with the role through to the handler', async () => {
    const { app } = await setupIn();
    app.get('/admin', authorize({ role: 'admin' }), (c) => c.text(`admin page for ${c.get('user')?.email}`));
    const res = await app.request('/admin', { headers: { cookie: await signIn(app, 'admin@example.com') } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('admin page for admin@example.com');
  });

  it('answers 403 (JSON or page) or the unauthorizedRedirect to a user without the role', async () => {
    const { app } = await setupIn();
    app.use('/admin/*', authorize({ role: 'admin' }));
    app.get('/admin/users', (c) => c.text('secret'));
    app.get('/denied/*', authorize({ role: 'admin', unauthorizedRedirect: '/' }), (c) => c.text('secret'));
    const cookie = await signIn(app, 'ed@example.com');
    const api = await app.request('/admin/users', { headers: { cookie, ...json } });
    expect(api.status).toBe(403);
    expect(await api.json()).toStrictEqual({ error: { code: 'FORBIDDEN', message: 'Requires the role "admin"' } });
    const page = await app.request('/admin/users', { headers: { cookie, ...html } });
    expect(page.status).toBe(403);
    expect(await page.text()).toContain('You don&#39;t have access');
    const redirect = await app.request('/denied/x', { headers: { cookie, ...html } });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('/');
  });

  it('answers 401 JSON to signed-out API clients and redirects browsers to sign in', async () => {
    const { app } = await setupIn();
    app.get('/posts/:id/edit', authorize({ permission: 'posts:edit' }), (c) => c.text('editor'));
    const api = await app.request('/posts/1/edit', { headers: json });
    expect(api.status).toBe(401);
    expect(await api.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    const browser = await app.request('/posts/1/edit?x=1', { headers: html });
    expect(browser.status).toBe(302);
    expect(browser.headers.get('location')).toBe('/auth/signin?callbackUrl=%2Fposts%2F1%2Fedit%3Fx%3D1');
  });

  it('inherits through the hierarchy, and required: false admits anonymous visitors', async () => {
    const { app } = await setupIn();
    app.get('/read', authorize({ permission: 'posts:read' }), (c) => c.text('read'));
    app.get('/feed', authorize({ required: false }), (c) => c.text(`feed for ${c.get('user')?.email ?? 'anonymous'}`));
    const cookie = await signIn(app, 'ed@example.com');
    expect((await app.request('/read', { headers: { cookie } })).status).toBe(200);
    expect(await (await app.request('/feed')).text()).toBe('feed for anonymous');
    expect(await (await app.request('/feed', { headers: { cookie } })).text()).toBe('feed for ed@example.com');
  });

  it('works with options.rbac', async () => {
    const { app } = await setupIn();
    app.get('/admin', authorize({ role: 'admin', rbac }), (c) => c.text('ok'));
    expect((await app.request('/admin', { headers: { cookie: await signIn(app, 'admin@example.com') } })).status).toBe(
      200,
    );
    expect(
      (await app.request('/admin', { headers: { cookie: await signIn(app, 'ed@example.com'), ...json } })).status,
    ).toBe(403);
  });

  it("keeps authSession's refreshed session cookie on the responses it gives", async () => {
    const { app } = await setupIn({ updateAge: 0 });
    app.get('/admin', authorize({ role: 'admin' }), (c) => c.text('ok'));
    const cookie = await signIn(app, 'ed@example.com');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const res = await app.request('/admin', { headers: { cookie, ...json } });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie().some((l) => l.startsWith('framework.session-token='))).toBe(true);
  });

  it('fails loudly without authSession, and rejects bad options at creation', async () => {
    const app = new Hono();
    app.get('/admin', authorize({ role: 'admin' }) as never, (c) => c.text('secret'));
    const res = await app.request('/admin');
    expect(res.status).toBe(500);
    expect(() => authorize({ role: 'admin', roles: [] })).toThrow(/roles must be a non-empty array/);
  });

  it('counts the roles plugins grant for this request', async () => {
    const { app } = await setupIn({ grant: 'admin' });
    app.get('/admin', authorize({ role: 'admin' }), (c) => c.text('ok'));
    const cookie = await signIn(app, 'ed@example.com');
    expect((await app.request('/admin', { headers: { cookie, ...json } })).status).toBe(403);
    expect((await app.request('/admin', { headers: { cookie, 'x-grant': '1', ...json } })).status).toBe(200);
  });
});

describe('context-bound RBAC helpers (Hono)', () => {
  it('check roles and permissions on the request context, with granted roles, answering 401/403 like the global ones', async () => {
    const { app } = await setup({ grant: 'admin' });
    app.get('/can', (c) =>
      c.json({
        admin: hasRole(c, 'admin'),
        edit: hasPermission(c, 'posts:edit'),
        read: hasPermission(c, 'posts:read'),
      }),
    );
    app.post('/publish', (c) => c.json({ by: requirePermission(c, 'posts:edit').email }));
    app.post('/reindex', (c) => c.json({ by: requireRole(c, 'admin').email }));
    expect(await (await app.request('/can')).json()).toEqual({ admin: false, edit: false, read: false });
    const cookie = await signIn(app, 'ed@example.com');
    expect(await (await app.request('/can', { headers: { cookie } })).json()).toEqual({
      admin: false,
      edit: true,
      read: true,
    });
    const post = (path: string, headers: Record<string, string>) =>
      app.request(path, { method: 'POST', headers: { ...json, ...headers } });
    expect((await post('/publish', {})).status).toBe(401);
    expect(await (await post('/publish', { cookie })).json()).toEqual({ by: 'ed@example.com' });
    const denied = await post('/reindex', { cookie });
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
    expect((await post('/reindex', { cookie, 'x-grant': '1' })).status).toBe(200);
  });

  it('fail loudly when authSession did not run', async () => {
    const app = new Hono();
    app.get('/x', (c) => c.text(String(hasRole(c, 'admin'))));
    const res = await app.request('/x');
    expect(res.status).toBe(500);
  });
});
