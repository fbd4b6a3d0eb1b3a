/**
 * The main job's home page in a real Chromium, configured as `npm start` configures it (every feature on): signed
 * out it offers signing in or creating an account; signed in it links to the account's pages, and every one of
 * them opens without an error page; an unknown auth URL shows "Page not found" with a link home.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { signInBrowserContext } from '@framework/testing/playwright';
import { start, stop, type Running } from './test-server.js';
import { chromiumAvailable, launchChromium, screenshot } from '@framework/example-shared/testing/browser';

const available = chromiumAvailable('the browser walk of the home page');

const ERROR_TEXT = /Sign-in problem|Something went wrong|Page not found|Internal error/;

/** The links of a list on the page, as `label → href`. */
async function linksOf(page: Page, selector: string): Promise<[string, string][]> {
  return page
    .locator(`${selector} a`)
    .evaluateAll((as) => as.map((a) => [a.textContent ?? '', a.getAttribute('href') ?? ''] as [string, string]));
}

describe.skipIf(!available)('the home page in Chromium', () => {
  let dir: string;
  let running: Running;
  let browser: Browser;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'home-browser-'));
    running = await start({ dbPath: join(dir, '.data', 'app.db'), likeNpmStart: true });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (running) await stop(running);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('signed out: offers signing in or creating an account, nothing that needs an account', async () => {
    const page = await (await browser.newContext({ baseURL: running.origin })).newPage();
    await page.goto('/');
    expect(await linksOf(page, '#signed-out-links')).toEqual([
      ['Sign in', '/auth/signin'],
      ['Create an account', '/auth/signup'],
    ]);
    expect(await page.locator('#account-links').count()).toBe(0);
    expect(await page.locator('nav').getByRole('link', { name: 'Sign out' }).count()).toBe(0);
    await screenshot(page, 'home-signed-out');
    await page.locator('#signed-out-links').getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(/\/auth\/signup/);
    expect(await page.locator('h1').textContent()).toBe('Create an account');
    await page.goto('/');
    await page.locator('#signed-out-links').getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(/\/auth\/signin/);
    expect(await page.locator('h1').textContent()).toBe('Sign in');
  });

  it('signed in: links to every feature, and each page opens without an error page', async () => {
    const context = await browser.newContext({ baseURL: running.origin });
    await signInBrowserContext(
      context,
      { auth: running.example.auth, baseURL: running.origin },
      { as: 'ada@example.com' },
    );
    const page = await context.newPage();
    await page.goto('/');
    expect(await page.locator('#user-email').textContent()).toBe('ada@example.com');
    expect(await page.locator('#signed-out-links').count()).toBe(0);
    expect(await page.locator('nav').getByRole('link', { name: 'Sign in' }).count()).toBe(0);
    const links = await linksOf(page, '#account-links');
    expect(links.map(([, href]) => href)).toEqual([
      '/auth/sessions',
      '/auth/multi-session',
      '/auth/passkey',
      '/auth/two-factor',
      '/auth/api-keys',
      '/auth/token',
      '/auth/oauth2/consents',
      '/auth/org',
      '/_framework/',
      '/auth/signout',
    ]);
    await screenshot(page, 'home-signed-in');
    for (const [label, href] of links) {
      await page.goto('/');
      const [response] = await Promise.all([
        page.waitForEvent('response', (r) => new URL(r.url()).pathname === href),
        page.locator('#account-links').getByRole('link', { name: label, exact: true }).click(),
      ]);
      expect(response.status(), href).toBe(200);
      await page.waitForLoadState();
      expect(await page.locator('body').innerText(), href).not.toMatch(ERROR_TEXT);
    }
    // The last link was the sign-out page: confirm it, and the home page is the signed-out one again.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.locator('#signed-out-links').count()).toBe(1);
  });

  it('an unknown auth URL shows "Page not found" with a link home', async () => {
    const page = await (await browser.newContext({ baseURL: running.origin })).newPage();
    const response = await page.goto('/auth/no-such-page');
    expect(response?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('Page not found');
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.locator('h1').textContent()).toBe('Welcome');
  });
});
