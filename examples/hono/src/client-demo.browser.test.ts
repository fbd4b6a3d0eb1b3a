/**
 * The browser client in a real Chromium (playwright-core, Debian's
 * /usr/bin/chromium) against the Hono example with the client demo page.
 * Without Chromium the tests are skipped with a message, except under
 * CI=true, where they fail.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordAccounts } from '@framework/auth';
import type { AuthState, AuthStore, signIn, signOut } from '@framework/auth-client';
import { createExampleApp, type ExampleApp } from './app.js';
import { chromiumAvailable, launchChromium } from '@framework/example-shared/testing/browser';

const available = chromiumAvailable('the browser tests of the auth client');

/** What the demo page puts on `window`. */
interface DemoWindow {
  authDemo: { store: AuthStore; history: AuthState['status'][]; signIn: typeof signIn; signOut: typeof signOut };
  marker?: number;
}

const EMAIL = 'grace@example.com';
const PASSWORD = 'hopper-1906';

describe.skipIf(!available)('auth client in Chromium', () => {
  let dir: string;
  let example: ExampleApp;
  let server: ServerType;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'client-browser-'));
    example = await createExampleApp({ dbPath: join(dir, 'app.db'), mailLog: () => {} });
    await passwordAccounts(example.adapter).register({ email: EMAIL, password: PASSWORD, name: 'Grace' });
    server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: example.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    context = await browser.newContext();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await example?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const rendered = (page: Page) =>
    page.evaluate(() => ({
      status: document.getElementById('status')!.textContent,
      email: document.getElementById('user-email')!.textContent,
    }));
  const state = (page: Page) => page.evaluate(() => (window as unknown as DemoWindow).authDemo.store.getState());
  const waitForStatus = (page: Page, status: string, timeout = 5000) =>
    page.waitForFunction((s) => document.body.dataset.status === s, status, { timeout });

  let tab: Page;
  let navigations = 0;

  it('shows loading, then unauthenticated', async () => {
    tab = await context.newPage();
    tab.on('framenavigated', (frame) => {
      if (frame === tab.mainFrame()) navigations++;
    });
    await tab.goto(`${base}/client-demo`);
    await waitForStatus(tab, 'unauthenticated');
    const history = await tab.evaluate(() => (window as unknown as DemoWindow).authDemo.history);
    expect(history).toEqual(['loading', 'unauthenticated']);
    expect(await rendered(tab)).toEqual({ status: 'unauthenticated', email: '' });
    expect(await state(tab)).toEqual({ status: 'unauthenticated', user: null, session: null });
  });

  it('reports a wrong password and stays unauthenticated', async () => {
    await tab.fill('#email', EMAIL);
    await tab.fill('#password', 'wrong-password');
    await tab.click('button[type=submit]');
    await tab.waitForFunction(() => document.getElementById('message')!.textContent !== '');
    expect(await tab.textContent('#message')).toBe('Sign-in failed (INVALID_CREDENTIALS)');
    expect((await state(tab)).status).toBe('unauthenticated');
  });

  it("signIn('credentials') turns it authenticated without a reload", async () => {
    await tab.evaluate(() => ((window as unknown as DemoWindow).marker = 42));
    const result = await tab.evaluate(
      ([email, password]) =>
        (window as unknown as DemoWindow).authDemo.signIn('credentials', { email, password, redirect: false }),
      [EMAIL, PASSWORD] as const,
    );
    expect(result).toMatchObject({ ok: true, status: 200 });
    await waitForStatus(tab, 'authenticated');
    expect(await tab.evaluate(() => (window as unknown as DemoWindow).marker)).toBe(42);
    expect(navigations).toBe(1);
    expect(await rendered(tab)).toEqual({ status: 'authenticated', email: EMAIL });
  });

  it('getState() matches what is rendered', async () => {
    const current = await state(tab);
    expect(current.status).toBe('authenticated');
    expect(current.user).toMatchObject({ email: EMAIL, name: 'Grace' });
    expect(current.session?.user).toEqual(current.user);
    const shown = await rendered(tab);
    expect({ status: current.status, email: current.user?.email }).toEqual(shown);
  });

  it('a second tab sees the sign-out of the first within a second', async () => {
    const second = await context.newPage();
    await second.goto(`${base}/client-demo`);
    await waitForStatus(second, 'authenticated');
    await tab.click('#signout');
    const started = Date.now();
    await waitForStatus(second, 'unauthenticated', 1000);
    expect(Date.now() - started).toBeLessThan(1000);
    await waitForStatus(tab, 'unauthenticated', 1000);
    expect(await rendered(second)).toEqual({ status: 'unauthenticated', email: '' });
    expect(await state(second)).toEqual({ status: 'unauthenticated', user: null, session: null });
    await second.close();
  });

  it('a tab that signs in through the form is seen by the other tabs too', async () => {
    const second = await context.newPage();
    await second.goto(`${base}/client-demo`);
    await waitForStatus(second, 'unauthenticated');
    await tab.fill('#email', EMAIL);
    await tab.fill('#password', PASSWORD);
    await tab.click('button[type=submit]');
    await waitForStatus(tab, 'authenticated');
    await waitForStatus(second, 'authenticated', 1000);
    expect(await rendered(second)).toEqual({ status: 'authenticated', email: EMAIL });
    await second.close();
  });
});
