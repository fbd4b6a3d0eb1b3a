/** A browser signs in through the local OpenID Provider: its login and consent are answered as `signInAs` says. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import type { Browser } from 'playwright-core';
import { createAuth, createMemoryAdapter } from '@framework/auth';
import { authSession, mountAuth, requireAuth, type AuthVariables } from '@framework/hono';
import { chromiumAvailable, launchChromium } from '@framework/example-shared/testing/browser';
import { createLocalIdp, type LocalIdp } from '@framework/testing/node';
import { serveApp } from '../../test/signed-in-app.js';

describe.skipIf(!chromiumAvailable('the local IdP browser test of @framework/testing'))('local IdP in Chromium', () => {
  let idp: LocalIdp;
  let server: Awaited<ReturnType<typeof serveApp>>;
  let browser: Browser;
  let app: Hono<{ Variables: AuthVariables }> | undefined;

  beforeAll(async () => {
    idp = await createLocalIdp();
    // The server first (its port is the app's origin), then the app that answers on it.
    server = await serveApp({ fetch: (request) => app!.fetch(request) });
    const auth = createAuth({
      baseURL: server.url,
      adapter: createMemoryAdapter(),
      providers: [idp.provider({ origin: server.url, name: 'Local IdP' })],
      env: {},
    });
    app = new Hono<{ Variables: AuthVariables }>();
    mountAuth(app, auth);
    app.use('*', authSession(auth));
    app.get('/me', (c) => c.text(`signed in as ${requireAuth(c, { throwError: true }).email}`));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await idp?.stop();
  });

  it('the sign-in page button goes to the provider and back, signed in as the chosen user', async () => {
    idp.addUser({ sub: 'ada', email: 'ada@example.com', name: 'Ada' });
    idp.addUser({ sub: 'grace', email: 'grace@example.com', name: 'Grace' });
    idp.signInAs('grace');
    const page = await browser.newPage({ baseURL: server.url });
    await page.goto('/auth/signin');
    await page.getByRole('button', { name: 'Sign in with Local IdP' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.goto('/me');
    expect(await page.textContent('body')).toBe('signed in as grace@example.com');
  });
});
