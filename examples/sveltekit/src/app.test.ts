/**
 * The SvelteKit example, built with `vite build` and run as adapter-node's
 * server, against the shared adapter conformance suite over HTTP, plus one
 * browser scenario in Chromium.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieClient, csrfFrom, runAdapterConformance } from '../../../test-support/adapter-conformance.js';
import { chromiumAvailable, launchChromium, screenshot } from '../../hono/src/test-browser.js';
import { startBuiltApp, TEST_ADMIN, TEST_WEBHOOK_SECRET } from './built-app.js';
import type { ServerProcess } from './test-process.js';

let pending: Promise<ServerProcess> | undefined;
const app = () => (pending ??= startBuiltApp('app'));

beforeAll(() => app(), 240_000);
afterAll(async () => (await pending)?.stop());

runAdapterConformance(
  'sveltekit (adapter-node build)',
  async () => ({ baseUrl: (await app()).baseUrl, close: async () => {} }),
  {
    api: { path: '/api/me' },
    admin: { path: '/admin', ...TEST_ADMIN },
    webhook: {
      path: '/webhooks/demo',
      sign: (body) => ({ 'x-signature': `sha256=${createHmac('sha256', TEST_WEBHOOK_SECRET).update(body).digest('hex')}` }),
    },
  },
);

const browserReady = chromiumAvailable('the SvelteKit example browser scenario');

describe('sveltekit example in Chromium', () => {
  it.skipIf(!browserReady)('signs in through the Svelte component and shows the user from the store and the server', async () => {
    const { baseUrl } = await app();
    const email = `svelte-${Date.now().toString(36)}@example.com`;
    const tab = cookieClient(baseUrl);
    const form = await tab.fetch('/register');
    const registered = await tab.form('/register', { csrfToken: csrfFrom(await form.text()), email, password: 'correct-horse-battery', name: 'Svelte' });
    expect(registered.status).toBe(303);

    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${baseUrl}/`);
      await page.locator('#store-status', { hasText: 'unauthenticated' }).waitFor();
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('correct-horse-battery');
      await page.getByRole('button', { name: 'Sign in here' }).click();
      await page.locator('#store-user', { hasText: email }).waitFor({ timeout: 10_000 });
      await page.locator('#user-email', { hasText: email }).waitFor({ timeout: 10_000 });
      await screenshot(page, 'sveltekit-signed-in');
      expect(await page.locator('#store-status').textContent()).toBe('authenticated');
    } finally {
      await browser.close();
    }
  }, 60_000);
});
