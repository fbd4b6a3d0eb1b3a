/**
 * The Next.js example, built with `next build` (only when its sources changed) and served by server.mjs: the HTTP
 * adapter conformance suite (hostile Host, absolute-form targets and over-limit chunked bodies included; the admin
 * page's 403 is forbidden.tsx), then the flows in Chromium: useSession() in a client component, sign-up, the
 * protected page, the role-guarded Server Action, sign-out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { cookieClient, runAdapterConformance } from '@framework/testing/conformance';
import { chromiumAvailable, launchChromium, screenshot } from '@framework/example-shared/testing/browser';
import { expectNavLinksServed } from '@framework/example-shared/testing/nav-links';
import { TEST_ADMIN, type ServerProcess } from '@framework/example-shared/testing/process';
import { signDemoWebhook } from '../../hono/app/triggers/_webhook-signing.js';
import { startNextExample, WEBHOOK_SECRET } from './next-app.js';

let pending: Promise<ServerProcess> | undefined;
const app = () => (pending ??= startNextExample());
// The first `next build` takes minutes on a small machine; later runs reuse it.
beforeAll(() => app(), 600_000);
afterAll(async () => (await pending)?.stop());

runAdapterConformance(
  'next (next build, server.mjs)',
  async () => ({ baseUrl: (await app()).baseUrl, close: async () => {} }),
  {
    api: { path: '/api/me' },
    admin: { path: '/admin', ...TEST_ADMIN, forbiddenPage: true },
    webhook: { path: '/webhooks/demo', sign: (body) => signDemoWebhook(body, { secret: WEBHOOK_SECRET }) },
  },
);

it('links only to pages it serves (no dead nav links), signed out', async () => {
  const tab = cookieClient((await app()).baseUrl);
  await expectNavLinksServed((path, init) => tab.fetch(path, init));
});

const password = 'correct-horse-battery';
const newEmail = (label: string) => `${label}-${Date.now().toString(36)}@example.com`;

async function signInOnKitPage(page: Page, base: string, email: string, pass: string, back = '/'): Promise<void> {
  await page.goto(`${base}/auth/signin?callbackUrl=${encodeURIComponent(back)}`);
  // The credentials form: the sign-in page also has the username, phone and email-code forms.
  const button = page.getByRole('button', { name: 'Sign in with Email and password' });
  const credentials = page.locator('form').filter({ has: button });
  await credentials.getByLabel('Email', { exact: true }).fill(email);
  await credentials.getByLabel('Password').fill(pass);
  await button.click();
  await page.waitForURL(`${base}${back}`);
}

const browserReady = chromiumAvailable('the Next.js example in Chromium');
describe.skipIf(!browserReady)('the Next.js example in Chromium', () => {
  it('signs in through useSession() in a client component; the Server Components render the session too', async () => {
    const { baseUrl } = await app();
    const email = newEmail('store');
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${baseUrl}/auth/signup`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByLabel('Name', { exact: true }).fill('Store');
      await page.getByRole('button', { name: /create|sign up/i }).click();
      await page.waitForURL(`${baseUrl}/`);
      await page.locator('#user-email', { hasText: email }).waitFor();
      await page.getByRole('button', { name: 'Sign out here' }).click();
      await page.locator('#store-status', { hasText: 'unauthenticated' }).waitFor();
      await page.locator('#user-email').waitFor({ state: 'detached' });
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in here' }).click();
      await page.locator('#store-user', { hasText: email }).waitFor();
      await page.locator('#user-email', { hasText: email }).waitFor();
      await screenshot(page, 'next-signed-in');
      expect(await page.locator('#store-status').textContent()).toBe('authenticated');
    } finally {
      await browser.close();
    }
  }, 90_000);

  it('guards the protected page and the role-guarded Server Action, then signs out', async () => {
    const { baseUrl } = await app();
    const browser = await launchChromium();
    try {
      const person = await browser.newPage();
      await person.goto(`${baseUrl}/protected`);
      await person.waitForURL(`${baseUrl}/auth/signin?callbackUrl=%2Fprotected`);
      const email = newEmail('person');
      const signup = await cookieClient(baseUrl).fetch('/auth/signup');
      expect(signup.status).toBe(200);
      await person.goto(`${baseUrl}/auth/signup`);
      await person.getByLabel('Email').fill(email);
      await person.getByLabel('Password').fill(password);
      await person.getByLabel('Name', { exact: true }).fill('Grace');
      await person.getByRole('button', { name: /create|sign up/i }).click();
      await person.waitForURL(`${baseUrl}/`);
      await person.goto(`${baseUrl}/protected`);
      await person.getByText('Hello, Grace').waitFor();
      await person.getByLabel('Admin note').fill('not mine to post');
      await person.getByRole('button', { name: 'Post as admin' }).click();
      await person.getByText('You may not see this page.').waitFor();

      const admin = await browser.newPage();
      await signInOnKitPage(admin, baseUrl, TEST_ADMIN.email, TEST_ADMIN.password, '/admin');
      await admin.getByLabel('Note').fill('hello from the action');
      await admin.getByRole('button', { name: 'Post note' }).click();
      await admin.locator('#notes li', { hasText: `hello from the action (${TEST_ADMIN.email})` }).waitFor();
      expect(await admin.locator('#notes').textContent()).not.toContain('not mine to post');
      await screenshot(admin, 'next-admin-action');

      await person.goto(`${baseUrl}/auth/signout`);
      await person.getByRole('button', { name: /sign out/i }).click();
      await person.waitForURL(/\/$/);
      await person.goto(`${baseUrl}/protected`);
      await person.waitForURL(`${baseUrl}/auth/signin?callbackUrl=%2Fprotected`);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
