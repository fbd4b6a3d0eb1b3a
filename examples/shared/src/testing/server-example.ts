/**
 * The flows every Node server example (Express, Fastify) runs over real HTTP, written once: sign-up at
 * /auth/signup and its welcome mail, the form's error, sign-in through the kit's page, nav links, the admin page,
 * a restart on the same SQLite file, sign-out. Each example's test adds what is its own in `extra`.
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { cookieClient, csrfFrom } from '@framework/testing/conformance';
import { expectNavLinksServed } from './nav-links.js';

/** The seeded admin of the examples' tests. */
export const EXAMPLE_ADMIN = { email: 'root@example.com', password: 'root-password-1' };

/** A started example. */
export interface RunningServerExample {
  base: string;
  mailer: { list(): Promise<{ to: string; subject: string }[]> };
  stop(): Promise<void>;
}

/** What an extra test reads: the running example and the signed-in person's client, as they are now. */
export interface ServerExampleState {
  running(): RunningServerExample;
  person(): ReturnType<typeof cookieClient>;
}

/**
 * Declares the shared suite `name` over `start(dbPath)` (started with {@link EXAMPLE_ADMIN} seeded), then the
 * example's own tests (`extra`), which run after sign-in and before the restart.
 */
export function describeServerExample(
  name: string,
  start: (dbPath: string) => Promise<RunningServerExample>,
  extra?: (state: ServerExampleState) => void,
): void {
  describe(`${name} example over HTTP`, async () => {
    const dir = await mkdtemp(join(tmpdir(), `framework-${name.toLowerCase()}-example-`));
    const dbPath = join(dir, 'app.db');
    let running = await start(dbPath);
    afterAll(async () => {
      await running.stop();
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
        async () => expect(await running.mailer.list()).toMatchObject([{ to: email, subject: 'Welcome!' }]),
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
      await boss.form('/auth/callback/credentials', { csrfToken: csrfFrom(await page.text()), ...EXAMPLE_ADMIN });
      const res = await boss.fetch('/admin');
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<strong id="role">admin</strong>');
    });

    extra?.({ running: () => running, person: () => b });

    it('keeps the session across a restart (the admin seed runs again without failing)', async () => {
      await running.stop();
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
}
