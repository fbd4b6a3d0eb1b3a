/**
 * `addPasskey()` and `signIn.passkey()` in a real Chromium (playwright-core, Debian's /usr/bin/chromium) with a
 * CDP virtual authenticator, against a real server on port 0 running `createAuth` with `passkey()` and a password
 * sign-in. The page loads the client bundle and calls the helpers as an app would. Without Chromium the tests are
 * skipped with a message, except under CI=true.
 */
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientScript } from './client-bundle.js';
import {
  createAuth,
  createMemoryAdapter,
  credentials,
  passkey,
  passwordAccounts,
  type AdapterUser,
  type Auth,
} from '@framework/auth';
import { chromiumAvailable, launchChromium } from '@framework/example-shared/testing/browser';
import { generousLogins } from '@framework/example-shared/testing/logins';

const available = chromiumAvailable('the passkey tests of the auth client');

type Client = typeof import('../src/index.js');
type Outcome = { ok: boolean; status: number; error?: string; url?: string; data?: unknown };

describe.skipIf(!available)('passkey helpers in Chromium with a virtual authenticator', () => {
  let server: ReturnType<typeof createAdaptorServer>;
  let origin: string;
  let browser: Browser;
  let auth: Auth;
  const adapter = createMemoryAdapter();
  let ada: AdapterUser;

  beforeAll(async () => {
    const script = await clientScript();
    server = createAdaptorServer({
      fetch: (request: Request) => {
        const { pathname } = new URL(request.url);
        if (pathname.startsWith('/auth/')) return auth.handler(request);
        if (pathname === '/client.js') return new Response(script, { headers: { 'content-type': 'text/javascript' } });
        return new Response(`<!doctype html><title>${pathname}</title><script src="/client.js"></script>`, {
          headers: { 'content-type': 'text/html' },
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // WebAuthn needs a secure context and a domain as the relying party: localhost, not the IP.
    origin = `http://localhost:${(server.address() as AddressInfo).port}`;
    const passwords = passwordAccounts(adapter);
    ada = await passwords.register({ email: 'ada@example.com', password: 'analytical-engine', name: 'Ada' });
    auth = createAuth({
      baseURL: origin,
      session: { strategy: 'database' },
      adapter,
      rateLimit: generousLogins(),
      providers: [
        credentials({
          credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
          authorize: passwords.authorize,
        }),
        passkey({ rpName: 'Kit client test' }),
      ],
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  /** A fresh profile with a virtual platform authenticator that verifies the user without a prompt. */
  async function profile(): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession; authenticatorId: string }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await page.goto(`${origin}/start`);
    return { context, page, cdp, authenticatorId };
  }

  /** Runs `body` in the page with the client bundle's exports as `client`. */
  function inPage<T>(page: Page, body: (client: Client, arg: string) => Promise<T>, arg = ''): Promise<T> {
    return page.evaluate(
      ([source, value]) => {
        const run = new Function('client', 'arg', `return (${source})(client, arg);`);
        return run((window as unknown as { authClient: Client }).authClient, value) as Promise<T>;
      },
      [body.toString(), arg] as const,
    );
  }

  it('adds a passkey to the signed-in account, then signs in with it alone', async () => {
    const { context, page, cdp, authenticatorId } = await profile();
    const signedIn = await inPage(page, (c) =>
      c.signIn('credentials', { email: 'ada@example.com', password: 'analytical-engine', redirect: false }),
    );
    expect(signedIn).toMatchObject({ ok: true, status: 200 });

    const added = await inPage(page, (c, name) => c.addPasskey({ name }), 'Work laptop');
    expect(added).toMatchObject({ ok: true, status: 200, data: { credential: { name: 'Work laptop' } } });
    const stored = await adapter.listAuthenticators(ada.id);
    expect(stored.map((a) => [a.credentialId, a.name])).toEqual([
      [(added.data as { credential: { id: string } }).credential.id, 'Work laptop'],
    ]);
    const { credentials: held } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(held).toHaveLength(1);
    expect(held[0]!.isResidentCredential).toBe(true);

    // The same authenticator cannot hold a second passkey for the account (the server excludes the first).
    expect(await inPage(page, (c) => c.addPasskey())).toEqual({
      ok: false,
      status: 0,
      error: 'PASSKEY_ALREADY_REGISTERED',
    });

    expect(await inPage(page, (c) => c.signOut({ redirect: false }))).toMatchObject({ ok: true, session: null });

    // Signed out, with a store on the page: the passkey alone signs in, and the store follows.
    const result = await inPage(page, async (c) => {
      const store = c.createAuthStore();
      store.subscribe(() => {});
      await store.refresh();
      const before = store.getState().status;
      const outcome: Outcome = await c.signIn.passkey({ redirect: false, callbackUrl: '/dashboard' });
      return { before, outcome, after: store.getState().status, email: store.getState().user?.email };
    });
    expect(result).toEqual({
      before: 'unauthenticated',
      outcome: { ok: true, status: 200, url: '/dashboard' },
      after: 'authenticated',
      email: 'ada@example.com',
    });
    expect(await inPage(page, (c) => c.getSession())).toMatchObject({ user: { email: 'ada@example.com' } });
    await context.close();
  }, 60_000);

  it('signIn.passkey navigates to the callback URL by default', async () => {
    const { context, page, cdp, authenticatorId } = await profile();
    await inPage(page, async (c) => {
      await c.signIn('credentials', { email: 'ada@example.com', password: 'analytical-engine', redirect: false });
      await c.addPasskey({ name: 'Second device' });
      await c.signOut({ redirect: false });
    });
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(1);
    const navigated = page.waitForURL(`${origin}/welcome`);
    await inPage(page, (c) => c.signIn.passkey({ callbackUrl: '/welcome' })).catch((error: unknown) => {
      // The navigation may tear the page down before evaluate returns: that is the expected outcome.
      if (!/Execution context was destroyed|navigation/i.test(String(error))) throw error;
    });
    await navigated;
    expect(await page.title()).toBe('/welcome');
    await context.close();
  }, 60_000);

  it('answers the failures with codes and never signs in', async () => {
    const { context, page, cdp, authenticatorId } = await profile();
    // Signed out, addPasskey is refused by the server (sign-up by passkey is off).
    expect(await inPage(page, (c) => c.addPasskey({ name: 'x' }))).toEqual({
      ok: false,
      status: 401,
      error: 'UNAUTHENTICATED',
    });
    // An authenticator without a passkey for this site: the browser ends the ceremony.
    const { credentials: none } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(none).toEqual([]);
    expect(await inPage(page, (c) => c.signIn.passkey({ redirect: false }))).toEqual({
      ok: false,
      status: 0,
      error: 'PASSKEY_CANCELLED',
    });
    // A passkey the server does not know (made for this site elsewhere, never registered here).
    await inPage(page, async () => {
      const options: PublicKeyCredentialCreationOptions = {
        rp: { name: 'elsewhere', id: 'localhost' },
        user: { id: new Uint8Array([1, 2, 3]), name: 'ghost@example.com', displayName: 'Ghost' },
        challenge: new Uint8Array(32),
        pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      };
      await navigator.credentials.create({ publicKey: options });
    });
    expect(await inPage(page, (c) => c.signIn.passkey({ redirect: false }))).toEqual({
      ok: false,
      status: 400,
      error: 'PASSKEY_VERIFICATION_FAILED',
    });
    expect(await inPage(page, (c) => c.getSession())).toBeNull();
    await context.close();
  }, 60_000);
});
