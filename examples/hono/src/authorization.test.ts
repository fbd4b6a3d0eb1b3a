/**
 * The authorization demo through Hono's app.request, with real password
 * sign-ins and the seeded users and tenants.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { createAuth, credentials, memoryAdapter, passwordAccounts } from '@framework/auth';
import { authSession, mountAuth, type AuthVariables } from '@framework/hono';
import { createMemoryTenantStorage } from '@framework/auth/tenant';
import { mountAuthorizationDemo, rbac } from './authorization.js';
import { DEMO_PASSWORD, seed } from './seed.js';

type App = Hono<{ Variables: AuthVariables }>;
let app: App;
const cookies: Record<string, string> = {};

beforeAll(async () => {
  const adapter = memoryAdapter();
  const tenants = createMemoryTenantStorage();
  await seed(adapter, tenants);
  const auth = createAuth({
    session: { strategy: 'database' },
    adapter,
    providers: [
      credentials({
        credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
        authorize: passwordAccounts(adapter).authorize,
      }),
    ],
    rbac,
  });
  app = new Hono<{ Variables: AuthVariables }>();
  mountAuth(app, auth);
  app.use('*', authSession(auth));
  mountAuthorizationDemo(app, { tenants });
  for (const who of ['admin', 'editor', 'viewer']) cookies[who] = await signIn(`${who}@example.com`);
});

async function signIn(email: string): Promise<string> {
  const csrf = await app.request('/auth/csrf');
  const csrfCookie = csrf.headers.get('set-cookie')!.split(';')[0]!;
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await app.request('/auth/callback/credentials', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie },
    body: new URLSearchParams({ csrfToken, email, password: DEMO_PASSWORD }).toString(),
  });
  expect(res.status).toBe(303);
  return res.headers.getSetCookie().find((l) => l.startsWith('framework.session-token='))!.split(';')[0]!;
}

const visit = (path: string, who?: string) => app.request(path, { headers: { accept: 'text/html', ...(who ? { cookie: cookies[who]! } : {}) } });

describe('authorization demo', () => {
  it('the admin page: admin 200, editor 403, signed out → sign in', async () => {
    const admin = await visit('/admin', 'admin');
    expect(admin.status).toBe(200);
    const body = await admin.text();
    expect(body).toContain('id="admin"');
    expect(body).toContain('Acme Inc.');
    expect((await visit('/admin', 'editor')).status).toBe(403);
    const anonymous = await visit('/admin');
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toBe('/auth/signin?callbackUrl=%2Fadmin');
  });

  it('posts: viewers read; editing needs editor (viewers are redirected back)', async () => {
    const read = await visit('/posts', 'viewer');
    expect(read.status).toBe(200);
    expect(await read.text()).not.toContain('>edit</a>');
    expect(await (await visit('/posts', 'editor')).text()).toContain('>edit</a>');
    const denied = await visit('/posts/edit', 'viewer');
    expect(denied.status).toBe(302);
    expect(denied.headers.get('location')).toBe('/posts?denied=1');
    expect((await visit('/posts/edit', 'editor')).status).toBe(200);
    expect((await visit('/posts/edit', 'admin')).status).toBe(200);
  });

  it('tenant pages show the tenant resolved from the path', async () => {
    const acme = await visit('/t/acme/', 'editor');
    expect(acme.status).toBe(200);
    const html = await acme.text();
    expect(html).toContain('<code id="tenant-slug">acme</code>');
    expect(html).toContain('with the role <strong>member</strong>');
    expect(await (await visit('/t/globex/dashboard', 'editor')).text()).toContain('You are not a member.');
    expect((await visit('/t/nope/')).status).toBe(404);
    expect((await visit('/t/..%2Facme/')).status).toBe(404);
    expect(await (await visit('/t/ACME')).text()).toContain('<code id="tenant-slug">acme</code>');
  });

  it('members pages need a membership of that tenant', async () => {
    expect((await visit('/t/acme/members', 'admin')).status).toBe(200);
    const stranger = await visit('/t/acme/members', 'viewer');
    expect(stranger.status).toBe(403);
    expect(await stranger.text()).toContain('not a member');
    expect((await visit('/t/nope/members', 'viewer')).status).toBe(404);
    expect((await visit('/t/acme/members')).status).toBe(302);
  });
});
