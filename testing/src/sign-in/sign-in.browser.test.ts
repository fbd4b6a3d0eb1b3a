/**
 * Signed-in browsers without the sign-in UI, in a real Chromium against an app on a real server: from the app's
 * auth in this process, and through `testSignInRoute()` as for an app in another process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { chromiumAvailable, launchChromium } from '@framework/example-shared/testing/browser';
import { signInBrowserContext, signedInStorageState } from '@framework/testing/playwright';
import { buildSignedInApp, serveApp, SIGN_IN_SECRET as SECRET } from '../../test/signed-in-app.js';

describe.skipIf(!chromiumAvailable('the signed-in browser tests of @framework/testing'))('signed-in browsers', () => {
  const { app, auth } = buildSignedInApp();
  let server: Awaited<ReturnType<typeof serveApp>>;
  let baseURL: string;
  let browser: Browser;

  beforeAll(async () => {
    server = await serveApp(app);
    baseURL = server.url;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function me(context: Awaited<ReturnType<Browser['newContext']>>) {
    const page = await context.newPage();
    const response = await page.goto('/me');
    return { status: response!.status(), body: response!.ok() ? await response!.json() : null };
  }

  it('a browser that did not sign in is refused', async () => {
    const context = await browser.newContext({ baseURL });
    expect((await me(context)).status).toBe(401);
  });

  it('in process: the user is created with roles, an active organization and a second factor', async () => {
    const context = await browser.newContext({ baseURL });
    const result = await signInBrowserContext(
      context,
      { auth, baseURL },
      { as: 'Ada@Example.com', roles: ['admin'], organization: 'Acme', twoFactor: true },
    );
    expect(await me(context)).toEqual({
      status: 200,
      body: { email: 'ada@example.com', roles: ['admin'], orgRole: 'owner' },
    });
    expect(await auth.extensions.twoFactor.isEnabled(result.user.id)).toBe(true);
    expect(result.totpURI).toMatch(/^otpauth:\/\/totp\//);

    // Again: the same user is reused, the organization made active again, the enrolment kept.
    const again = await browser.newContext({ baseURL });
    const second = await signInBrowserContext(
      again,
      { auth, baseURL },
      { as: 'ada@example.com', organization: 'Acme', twoFactor: true },
    );
    expect(second.user.id).toBe(result.user.id);
    expect(second.totpURI).toBeUndefined();
    expect((await me(again)).body).toEqual({ email: 'ada@example.com', roles: ['admin'], orgRole: 'owner' });
    const { organizations } = await (await again.request.get('/auth/org/list')).json();
    expect(organizations).toHaveLength(1);
  });

  it('through testSignInRoute: the secret signs in; a wrong one is told to add the route', async () => {
    const context = await browser.newContext({ baseURL });
    await signInBrowserContext(context, { baseURL, secret: SECRET }, { as: 'grace@example.com', roles: ['viewer'] });
    expect(await me(context)).toEqual({
      status: 200,
      body: { email: 'grace@example.com', roles: ['viewer'], orgRole: null },
    });

    const stranger = await browser.newContext({ baseURL });
    await expect(
      signInBrowserContext(stranger, { baseURL, secret: `${SECRET}!` }, { as: 'mallory@example.com' }),
    ).rejects.toThrow(/test\/sign-in answered 404: add testSignInRoute/);
    expect((await me(stranger)).status).toBe(401);
    expect(await auth.adapter!.getUserByEmail('mallory@example.com')).toBeNull();
  });

  it('a storage state signs in a new context', async () => {
    const state = await signedInStorageState({ baseURL, secret: SECRET }, { as: 'grace@example.com' });
    const context = await browser.newContext({ baseURL, storageState: state });
    expect((await me(context)).body).toMatchObject({ email: 'grace@example.com' });
  });
});
