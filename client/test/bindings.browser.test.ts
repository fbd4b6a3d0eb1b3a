/**
 * The framework bindings in a real Chromium (playwright-core, Debian's
 * /usr/bin/chromium). Each binding gets a tiny page (bundled with esbuild)
 * served beside the kit's real auth routes; the page's component shows
 * `loading`, then `unauthenticated`; after `signIn('credentials', …)` the
 * user's email; after `signOut()` `unauthenticated` again, with no reload.
 * Without Chromium the tests are skipped with a message, except under
 * CI=true.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium } from '@framework/example-shared/testing/browser';
import { bundlePage } from './bindings/bundle.js';
import type { BindingWindow } from './bindings/page-common.js';
import { EMAIL, PASSWORD, startBindingServer, type BindingServer } from './bindings/server.js';

const available = chromiumAvailable('the framework-binding tests of the auth client');
const FRAMEWORKS = ['react', 'preact', 'vue', 'svelte', 'solid'] as const;

describe.skipIf(!available)('framework bindings in Chromium', () => {
  let server: BindingServer;
  let browser: Browser;

  beforeAll(async () => {
    const scripts = await Promise.all(FRAMEWORKS.map(async (name) => [name, await bundlePage(name)] as const));
    server = await startBindingServer(Object.fromEntries(scripts));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const framework of FRAMEWORKS) {
    it(`${framework}: loading → unauthenticated → the user's email after signIn → unauthenticated after signOut`, async () => {
      const context = await browser.newContext();
      const tab = await context.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (error) => errors.push(error.message));
      const shows = (text: string) =>
        tab.waitForFunction((t) => document.getElementById('status')?.textContent === t, text, { timeout: 5000 });

      await tab.goto(`${server.base}/${framework}`);
      await shows('unauthenticated');
      expect(await tab.evaluate(() => (window as unknown as BindingWindow).seen)).toEqual([
        'loading',
        'unauthenticated',
      ]);

      const wrong = await tab.evaluate(
        (email) =>
          (window as unknown as BindingWindow).authClient.signIn('credentials', {
            email,
            password: 'not-the-password',
            redirect: false,
          }),
        EMAIL,
      );
      expect(wrong).toMatchObject({ ok: false, error: 'INVALID_CREDENTIALS' });
      const signedIn = await tab.evaluate(
        ([email, password]) =>
          (window as unknown as BindingWindow).authClient.signIn('credentials', { email, password, redirect: false }),
        [EMAIL, PASSWORD] as const,
      );
      expect(signedIn).toMatchObject({ ok: true });
      await shows(EMAIL);

      const signedOut = await tab.evaluate(() =>
        (window as unknown as BindingWindow).authClient.signOut({ redirect: false }),
      );
      expect(signedOut).toMatchObject({ ok: true, session: null });
      await shows('unauthenticated');
      expect(await tab.evaluate(() => (window as unknown as BindingWindow).seen)).toEqual([
        'loading',
        'unauthenticated',
        EMAIL,
        'unauthenticated',
      ]);
      expect(errors).toEqual([]);
      await context.close();
    }, 30_000);
  }
});
