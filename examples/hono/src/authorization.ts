/**
 * The authorization demo of the example app: roles (admin, editor ⊃ viewer),
 * an admin page, an editor/viewer posts demo, and per-tenant pages under
 * `/t/:slug/…`. The roles themselves are shared by every example
 * (examples/shared/src/authorization.ts). See ../AUTHORIZATION.md for how to
 * try each case.
 */
import Database from 'better-sqlite3';
import type { Hono } from 'hono';
import { Kysely, SqliteDialect } from 'kysely';
import { AuthError, type User } from '@framework/auth';
import type { AuthVariables } from '@framework/hono';
import { createSqlTenantStorage, createTenantResolver, type Tenant, type TenantStorage } from '@framework/auth/tenant';
import { authorize } from '@framework/hono';
import { rbac } from '@framework/example-shared/authorization';

/** What {@link mountAuthorizationDemo} needs. */
export interface AuthorizationDemoDeps {
  /** Where the demo tenants and memberships live (see {@link openDemoTenantStorage}). */
  tenants: TenantStorage;
}

const POSTS = [
  { id: 'p1', title: 'Hello, tenants', ownerId: 'nobody' },
  { id: 'p2', title: 'Roles and permissions', ownerId: 'nobody' },
];

const text = (value: unknown) => String(value ?? '').replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function demoPage(title: string, user: User | null | undefined, body: string): string {
  const who = user
    ? `Signed in as <strong>${text(user.email)}</strong> (roles: ${text(rbac.rolesOf(user).join(', ') || 'none')})`
    : 'Not signed in';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${text(title)}</title></head><body style="font-family:system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem">
<nav><a href="/">Home</a> · <a href="/posts">Posts</a> · <a href="/posts/edit">Edit posts</a> · <a href="/admin">Admin</a> · <a href="/t/">Tenants</a></nav>
<p><small>${who}</small></p><main><h1>${text(title)}</h1>${body}</main></body></html>`;
}

const list = (items: string[]) =>
  items.length ? `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>` : '<p>None.</p>';

/**
 * Adds the demo routes to `app`, which must already run `authSession(auth)`
 * with an auth created as `createAuth({ ..., rbac })`:
 * - `GET /admin`: `authorize({ role: 'admin' })`; lists every tenant.
 * - `GET /posts`: `authorize({ permission: 'posts:read' })` (viewer, editor, admin).
 * - `GET /posts/edit`: `authorize({ permission: 'posts:edit', unauthorizedRedirect: '/posts?denied=1' })`.
 * - `GET /t/`: every tenant, linked (public).
 * - `GET /t/:slug/`: the tenant resolved from the path (404 when unknown) and your membership.
 * - `GET /t/:slug/members`: signed-in members only (`requireMember`); 403 for others.
 */
export function mountAuthorizationDemo<A extends Hono<{ Variables: AuthVariables }>>(
  app: A,
  deps: AuthorizationDemoDeps,
): A {
  const resolver = createTenantResolver(deps.tenants, { strategy: 'path' });

  app.get('/admin', authorize({ role: 'admin' }), async (c) => {
    const { tenants } = await deps.tenants.list({ limit: 100 });
    const rows = tenants.map((t) => `<a href="/t/${text(t.slug)}/">${text(t.name)}</a> <code>${text(t.slug)}</code>`);
    return c.html(
      demoPage(
        'Admin',
        c.get('user'),
        `<p id="admin">Only the <code>admin</code> role sees this page.</p><p><a href="/auth/admin">Manage users</a> · <a href="/auth/admin/audit">Audit log (JSON)</a></p><h2>Tenants</h2>${list(rows)}`,
      ),
    );
  });

  app.get('/posts', authorize({ permission: 'posts:read' }), (c) => {
    const user = c.get('user');
    const canEdit = rbac.hasPermission(user, 'posts:edit');
    const denied = c.req.query('denied') ? '<p role="alert">Editing needs the <code>editor</code> role.</p>' : '';
    const rows = POSTS.map((p) => `${text(p.title)}${canEdit ? ` <a href="/posts/edit">edit</a>` : ''}`);
    return c.html(
      demoPage(
        'Posts',
        user,
        `${denied}<p>Readable by <code>viewer</code> and every role that inherits it.</p>${list(rows)}`,
      ),
    );
  });

  app.get('/posts/edit', authorize({ permission: 'posts:edit', unauthorizedRedirect: '/posts?denied=1' }), (c) =>
    c.html(demoPage('Edit posts', c.get('user'), '<p id="editor">Editors (and admins) may edit posts.</p>')),
  );

  const tenantPage = async (tenant: Tenant, user: User | null) => {
    const membership = user ? await deps.tenants.getMember(tenant.id, user.id) : null;
    const status = membership
      ? `You are a member, with the role <strong>${text(membership.role)}</strong>.`
      : 'You are not a member.';
    return demoPage(
      tenant.name,
      user,
      `<p>Tenant <code id="tenant-slug">${text(tenant.slug)}</code> resolved from the path.</p><p>${status}</p><p><a href="/t/${text(tenant.slug)}/members">Members</a></p>`,
    );
  };

  app.get('/t/:slug/members', authorize(), async (c) => {
    try {
      const { tenant } = await resolver.requireMember(c.req.raw, c.get('user'));
      const { members } = await deps.tenants.listMembers(tenant.id, { limit: 100 });
      return c.html(
        demoPage(
          `${tenant.name}: members`,
          c.get('user'),
          list(members.map((m) => `${text(m.userId)}: ${text(m.role)}`)),
        ),
      );
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      return c.html(
        demoPage('Not allowed', c.get('user'), `<p role="alert">${text(error.message)}.</p>`),
        error.status as 403 | 404,
      );
    }
  });

  app.get('/t/', async (c) => {
    // One page of 100 at a time (keyset paging: `?after=` is the last id of the page before).
    const after = c.req.query('after');
    const { tenants, next } = await deps.tenants.list({ limit: 100, ...(after ? { after } : {}) });
    const rows = tenants.map((t) => `<a href="/t/${text(t.slug)}/">${text(t.name)}</a>`);
    const empty = '<p>No tenants yet: <code>npm run seed</code> creates <code>acme</code> and <code>globex</code>.</p>';
    const more = next ? `<p><a href="/t/?after=${text(encodeURIComponent(next))}">More tenants</a></p>` : '';
    return c.html(demoPage('Tenants', c.get('user'), rows.length ? list(rows) + more : empty));
  });

  // Matches /t/:slug, /t/:slug/ and everything below it.
  app.get('/t/:slug/*', async (c) => {
    const tenant = await resolver.resolve(c.req.raw);
    if (!tenant) return c.html(demoPage('Tenant not found', c.get('user'), '<p>No tenant has this address.</p>'), 404);
    return c.html(await tenantPage(tenant, c.get('user')));
  });

  return app;
}

/**
 * Opens the demo's tenant storage: SQL tables in the SQLite file `filename`
 * (the app's own database file works), migrated.
 */
export async function openDemoTenantStorage(
  filename: string,
): Promise<{ tenants: TenantStorage; close(): Promise<void> }> {
  if (filename !== ':memory:') {
    const [{ mkdir }, { dirname }] = await Promise.all([import('node:fs/promises'), import('node:path')]);
    await mkdir(dirname(filename), { recursive: true });
  }
  const database = new Database(filename);
  database.pragma('journal_mode = WAL');
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database }) });
  const tenants = createSqlTenantStorage(db);
  await tenants.migrate();
  return { tenants, close: () => db.destroy() };
}
