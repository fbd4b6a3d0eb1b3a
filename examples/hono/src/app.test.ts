/**
 * Real-server test: the example app on a real port with a real cookie jar,
 * across a restart on the same SQLite file.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectNavLinksServed } from '@framework/example-shared/testing/nav-links';
import { browser, csrfFrom, form, start, stop } from './test-server.js';

describe('example app over HTTP', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'framework-example-'));
  const dbPath = join(dir, 'app.db');
  let running = await start({ dbPath });
  afterAll(async () => {
    await stop(running);
    await rm(dir, { recursive: true, force: true });
  });

  const b = browser();
  const email = 'grace@example.com';
  const password = 'hopper-1906';

  it('signs a new person up through the kit’s /auth/signup page (linked from the sign-in page), signed in at once', async () => {
    expect(await (await b.fetch(`${running.base}/auth/signin`)).text()).toContain('href="/auth/signup"');
    const page = await b.fetch(`${running.base}/auth/signup`);
    expect(page.status).toBe(200);
    const res = await b.fetch(
      `${running.base}/auth/signup`,
      form({ csrfToken: csrfFrom(await page.text()), callbackUrl: '/', email, password, name: 'Grace' }),
    );
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    expect(await (await b.fetch(`${running.base}/`)).text()).toContain(`<strong id="user-email">${email}</strong>`);
  });

  it('sends the verification link and, through the queue trigger, the welcome mail', async () => {
    const welcome = async () => (await running.example.mailer.list()).find((m) => m.subject === 'Welcome!');
    const deadline = Date.now() + 5000;
    while (!(await welcome()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await welcome()).toMatchObject({ to: email, text: 'Hello Grace, your account is ready.' });
    const verify = (await running.example.mailer.list()).find((m) => m.subject === 'Confirm your email address');
    expect(verify?.text).toContain(`${running.base}/auth/verify-email?token=`);
  });

  it('refuses a duplicate email without overwriting the account', async () => {
    const other = browser();
    const page = await other.fetch(`${running.base}/auth/signup`);
    const res = await other.fetch(
      `${running.base}/auth/signup`,
      form({
        csrfToken: csrfFrom(await page.text()),
        email: 'GRACE@example.com',
        password: 'another-password',
        name: 'Mallory',
      }),
    );
    expect(res.status).toBe(409);
    expect(await res.text()).toContain('An account with this email already exists');
  });

  it('refuses a sign-up without a CSRF token', async () => {
    const res = await browser().fetch(
      `${running.base}/auth/signup`,
      form({ email: 'x@example.com', password: 'long-enough-1' }),
    );
    expect(res.status).toBe(403);
  });

  it('signs in through the kit’s sign-in page and shows the session', async () => {
    const page = await b.fetch(`${running.base}/auth/signin?callbackUrl=%2F`);
    const html = await page.text();
    expect(html).toContain('Sign in with Email and password');
    const res = await b.fetch(
      `${running.base}/auth/callback/credentials`,
      form({ csrfToken: csrfFrom(html), callbackUrl: '/', email, password }),
    );
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    const home = await (await b.fetch(`${running.base}/`)).text();
    expect(home).toContain(`<strong id="user-email">${email}</strong>`);
    expect(home).toContain('Your session expires at');
    const protectedPage = await b.fetch(`${running.base}/protected`);
    expect(protectedPage.status).toBe(200);
    expect(await protectedPage.text()).toContain('Hello, Grace');
  });

  it('links only to pages it serves: no dead nav links, signed out or in', async () => {
    const anonymous = browser();
    const hrefs = await expectNavLinksServed((path, init) => anonymous.fetch(`${running.base}${path}`, init));
    expect(hrefs).toEqual(expect.arrayContaining(['/auth/signin', '/t/', '/dev/outbox']));
    expect(hrefs).not.toContain('/auth/signout');
    const signedIn = await expectNavLinksServed((path, init) => b.fetch(`${running.base}${path}`, init));
    expect(signedIn).toEqual(expect.arrayContaining(['/auth/passkey', '/auth/signout']));
    expect(signedIn).not.toContain('/auth/signin');
    // The tenant demo's own pages (a database without `npm run seed`: no tenants yet).
    await expectNavLinksServed((path, init) => b.fetch(`${running.base}${path}`, init), '/t/');
  });

  it('keeps the session across a restart of the app', async () => {
    await stop(running);
    running = await start({ dbPath });
    const session = await (
      await b.fetch(`${running.base}/auth/session`, { headers: { accept: 'application/json' } })
    ).json();
    expect(session).toMatchObject({ user: { email, name: 'Grace' } });
  });

  it('signs out, after which the session is gone and the protected page redirects', async () => {
    const page = await b.fetch(`${running.base}/auth/signout`);
    const res = await b.fetch(`${running.base}/auth/signout`, form({ csrfToken: csrfFrom(await page.text()) }));
    expect(res.status).toBe(303);
    const session = await (
      await b.fetch(`${running.base}/auth/session`, { headers: { accept: 'application/json' } })
    ).json();
    expect(session).toBeNull();
    const protectedPage = await b.fetch(`${running.base}/protected`);
    expect(protectedPage.status).toBe(302);
    expect(protectedPage.headers.get('location')).toBe('/auth/signin?callbackUrl=%2Fprotected');
  });

  it('a wrong password sends the person back to the sign-in page with an error', async () => {
    const page = await b.fetch(`${running.base}/auth/signin`);
    const res = await b.fetch(
      `${running.base}/auth/callback/credentials`,
      form({ csrfToken: csrfFrom(await page.text()), email, password: 'wrong-password' }),
    );
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toContain('/auth/signin?error=CredentialsSignin');
    const shown = await (await b.fetch(`${running.base}${res.headers.get('location')}`)).text();
    expect(shown).toContain('Sign in failed');
  });
});
