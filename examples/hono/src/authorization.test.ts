/**
 * The authorization demo in-process through @framework/testing: the app is
 * built on the test context's fresh SQLite, seeded with the demo users and
 * tenants, and each role visits with a real session from withAuth.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { createAuth, credentials, passwordAccounts } from '@framework/auth';
import { authSession, mountAuth, type AuthVariables } from '@framework/hono';
import { createMemoryTenantStorage } from '@framework/auth/tenant';
import { createTestContext, type TestContext } from '@framework/testing';
import { rbac } from '@framework/example-shared/authorization';
import { mountAuthorizationDemo } from './authorization.js';
import { seed, type SeedResult } from './seed.js';

const tenants = createMemoryTenantStorage();
let seeded: SeedResult;
const ctx = await createTestContext({
  createApp: (db) => {
    const auth = createAuth({
      session: { strategy: 'database' },
      adapter: db.adapter,
      providers: [
        credentials({
          credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
          authorize: passwordAccounts(db.adapter).authorize,
        }),
      ],
      rbac,
    });
    const app = new Hono<{ Variables: AuthVariables }>();
    mountAuth(app, auth);
    app.use('*', authSession(auth));
    mountAuthorizationDemo(app, { tenants });
    return { app, auth };
  },
  seed: async (db) => {
    seeded = await seed(db.adapter, tenants);
  },
});
afterAll(() => ctx.cleanup());

const as: Record<string, TestContext> = Object.fromEntries(
  ['admin', 'editor', 'viewer'].map((who) => [who, ctx.withAuth({ userId: seeded.users[`${who}@example.com`]! })]),
);

const visit = (path: string, who?: string) => (who ? as[who]! : ctx).fetch(path, { headers: { accept: 'text/html' } });

describe('authorization demo', () => {
  it('the admin page: admin 200, editor 403, signed out → sign in', async () => {
    const admin = await visit('/admin', 'admin');
    expect(admin.status).toBe(200);
    const body = await admin.text();
    expect(body).toContain('id="admin"');
    expect(body).toContain('Acme Inc.');
    const editor = await visit('/admin', 'editor');
    expect(editor.status).toBe(403);
    const refusal = await editor.text();
    expect(refusal).toContain('<h1>You don&#39;t have access</h1>');
    expect(refusal).not.toContain('Sign-in problem');
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
