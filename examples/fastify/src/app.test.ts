/**
 * Real-server test of the Fastify example: sign-up at /auth/signup (and its welcome mail),
 * sign in through the kit's page, the protected and admin pages, the preHandler guards, a restart on
 * the same SQLite file, sign-out.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cookieClient, csrfFrom } from '@framework/testing/conformance';
import { createFastifyExample, type FastifyExample } from './app.js';
import { generousLogins } from '@framework/example-shared/testing/logins';
import { expectNavLinksServed } from '@framework/example-shared/testing/nav-links';

const admin = { email: 'root@example.com', password: 'root-password-1' };

interface Running {
  example: FastifyExample;
  base: string;
}

async function start(dbPath: string): Promise<Running> {
  const example = await createFastifyExample({ dbPath, admin, mailLog: () => {}, rateLimit: generousLogins() });
  await example.triggers.start();
  const base = await example.app.listen({ port: 0, host: '127.0.0.1' });
  return { example, base };
}

async function stop(r: Running): Promise<void> {
  await r.example.close();
}

describe('fastify example over HTTP', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'framework-fastify-example-'));
  const dbPath = join(dir, 'app.db');
  let running = await start(dbPath);
  afterAll(async () => {
    await stop(running);
    await rm(dir, { recursive: true, force: true });
  });
  let b = cookieClient(running.base);
  const email = 'grace@example.com';
  const password = 'hopper-1906';

  it('signs a new person up through the kit’s /auth/signup', async () => {
    const page = await b.fetch('/auth/signup');
    const res = await b.form('/auth/signup', {
      csrfToken: csrfFrom(await page.text()),
      callbackUrl: '/',
      email,
      password,
      name: 'Grace',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
  });

  it('sends the welcome mail through the queue trigger', async () => {
    await vi.waitFor(
      async () => expect(await running.example.mailer.list()).toMatchObject([{ to: email, subject: 'Welcome!' }]),
      { timeout: 5000 },
    );
  });

  it('re-renders the form with the message for a bad password', async () => {
    const page = await b.fetch('/auth/signup');
    const res = await b.form('/auth/signup', {
      csrfToken: csrfFrom(await page.text()),
      email: 'short@example.com',
      password: 'short',
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Password must be at least 8 characters');
  });

  it('signs in through the kit’s sign-in page; home and protected pages show the person', async () => {
    const page = await b.fetch('/auth/signin?callbackUrl=%2F');
    const res = await b.form('/auth/callback/credentials', {
      csrfToken: csrfFrom(await page.text()),
      callbackUrl: '/',
      email,
      password,
    });
    expect(res.status).toBe(303);
    expect(await (await b.fetch('/')).text()).toContain(`<strong id="user-email">${email}</strong>`);
    expect(await (await b.fetch('/protected')).text()).toContain('Hello, Grace');
  });

  it('links only to pages it serves: no dead nav links, signed out or in', async () => {
    const hrefs = await expectNavLinksServed((path, init) => cookieClient(running.base).fetch(path, init));
    expect(hrefs).not.toContain('/t/');
    expect(hrefs).not.toContain('/dev/outbox');
    await expectNavLinksServed((path, init) => b.fetch(path, init));
  });

  it('refuses the admin page to a person without the admin role, shows it to the seeded admin', async () => {
    const denied = await b.fetch('/admin');
    expect(denied.status).toBe(403);
    const boss = cookieClient(running.base);
    const page = await boss.fetch('/auth/signin');
    await boss.form('/auth/callback/credentials', { csrfToken: csrfFrom(await page.text()), ...admin });
    const res = await boss.fetch('/admin');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<strong id="role">admin</strong>');
  });

  it('guards the API routes with preHandlers: 401 signed out, 403 without the role, 200 for the admin', async () => {
    const json = { headers: { accept: 'application/json' } };
    const out = await cookieClient(running.base).fetch('/api/session', json);
    expect([out.status, await out.json()]).toMatchObject([401, { error: { code: 'UNAUTHENTICATED' } }]);
    expect((await b.fetch('/api/session', json)).status).toBe(200);
    const denied = await b.fetch('/api/admin', json);
    expect([denied.status, await denied.json()]).toMatchObject([403, { error: { code: 'FORBIDDEN' } }]);
    const boss = cookieClient(running.base);
    const page = await boss.fetch('/auth/signin');
    await boss.form('/auth/callback/credentials', { csrfToken: csrfFrom(await page.text()), ...admin });
    expect(await (await boss.fetch('/api/admin', json)).json()).toEqual({ admin: admin.email });
  });

  it('keeps the session across a restart (the admin seed runs again without failing)', async () => {
    await stop(running);
    running = await start(dbPath);
    b = cookieClient(running.base, b.jar);
    const me = await b.fetch('/api/me', { headers: { accept: 'application/json' } });
    expect(await me.json()).toMatchObject({ email, name: 'Grace', role: null });
  });

  it('signs out; the protected page redirects again', async () => {
    const page = await b.fetch('/auth/signout');
    expect((await b.form('/auth/signout', { csrfToken: csrfFrom(await page.text()) })).status).toBe(303);
    const res = await b.fetch('/protected');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/auth/signin?callbackUrl=%2Fprotected');
  });
});
