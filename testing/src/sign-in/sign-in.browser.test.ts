/**
 * Signed-in browsers without the sign-in UI, in a real Chromium against an app on a real server: from the app's
 * auth in this process, and through `testSignInRoute()` as for an app in another process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { Browser } from 'playwright-core';
import { createAuth, createMemoryAdapter } from '@framework/auth';
import { createMemoryTwoFactorStorage, twoFactor } from '@framework/auth/plugins/two-factor';
import { createMemoryInvitationStorage, organizations } from '@framework/auth/plugins/organizations';
import { createMemoryTenantStorage } from '@framework/auth/tenant';
import { authSession, mountAuth, requireAuth, type AuthVariables } from '@framework/hono';
import { chromiumAvailable, launchChromium } from '@framework/example-shared/testing/browser';
import { createMailbox, testSignInRoute } from '@framework/testing';
import { signInBrowserContext, signedInStorageState } from '@framework/testing/playwright';

const SECRET = 'a-test-sign-in-secret-of-32-chars-at-least';

function buildApp() {
  const auth = createAuth({
    secret: 'a-session-secret-of-at-least-32-characters',
    session: { strategy: 'database' },
    adapter: createMemoryAdapter(),
    providers: [],
    env: {},
    logger: { error: () => {}, warn: () => {} },
    plugins: [
      twoFactor({ storage: createMemoryTwoFactorStorage() }),
      organizations({
        tenants: createMemoryTenantStorage(),
        invitations: createMemoryInvitationStorage(),
        sendInvitation: createMailbox().hooks.sendInvitation,
      }),
      testSignInRoute({ secret: SECRET, env: {} }),
    ],
  });
  const app = new Hono<{ Variables: AuthVariables }>();
  mountAuth(app, auth);
  app.use('*', authSession(auth));
  app.get('/me', async (c) => {
    const user = requireAuth(c, { throwError: true });
    const active = await auth.extensions.organizations.active(c.req.raw, user);
    return c.json({ email: user.email, roles: user.roles ?? null, orgRole: active?.membership.role ?? null });
  });
  return { app, auth };
}

describe.skipIf(!chromiumAvailable('the signed-in browser tests of @framework/testing'))('signed-in browsers', () => {
  const { app, auth } = buildApp();
  let server: ServerType;
  let baseURL: string;
  let browser: Browser;

  beforeAll(async () => {
    server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
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
