/**
 * The example's admin pages in a real Chromium: the admin signs in, goes from the app's `/admin` to the kit's user
 * list, bans a user with a reason and unbans them. Screenshots go to test-results/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { passwordAccounts } from '@framework/auth';
import { signInBrowserContext } from '@framework/testing/playwright';
import { start, stop, type Running } from './test-server.js';
import { chromiumAvailable, launchChromium, screenshot } from '@framework/example-shared/testing/browser';

const available = chromiumAvailable('the browser tests of the admin page');

describe.skipIf(!available)('admin page in Chromium', () => {
  let dir: string;
  let running: Running;
  let browser: Browser;
  let graceId: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'admin-browser-'));
    running = await start({ dbPath: join(dir, 'app.db') });
    const passwords = passwordAccounts(running.example.adapter);
    graceId = (await passwords.register({ email: 'grace@example.com', password: 'hopper-1906', name: 'Grace' })).id;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (running) await stop(running);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('lists users, bans one with a reason and unbans them', async () => {
    const context = await browser.newContext({ baseURL: running.origin });
    // Signed in by the fixture (the sign-in page has its own tests): root is created as an admin.
    const target = { auth: running.example.auth, baseURL: running.origin };
    await signInBrowserContext(context, target, { as: 'root@example.com', name: 'Root', roles: ['admin'] });
    const page = await context.newPage();
    await page.goto('/admin');
    await page.getByRole('link', { name: 'Manage users' }).click();
    await page.waitForURL(/\/auth\/admin$/);
    const row = page.locator(`tr[data-user-id="${graceId}"]`);
    expect(await row.locator('.status').textContent()).toBe('Active');
    await screenshot(page, 'admin-users');
    await row.getByLabel('Reason for banning grace@example.com').fill('spam');
    await row.getByRole('button', { name: 'Ban' }).click();
    await page.waitForURL(/\/auth\/admin\/users\/ban$/);
    expect(await page.getByRole('status').textContent()).toContain('Banned');
    expect(await page.locator(`tr[data-user-id="${graceId}"] .status`).textContent()).toBe('Banned: spam');
    await screenshot(page, 'admin-user-banned');
    await page.locator(`tr[data-user-id="${graceId}"]`).getByRole('button', { name: 'Unban' }).click();
    await page.waitForURL(/\/auth\/admin\/users\/unban$/);
    expect(await page.locator(`tr[data-user-id="${graceId}"] .status`).textContent()).toBe('Active');
    await context.close();
  });
});
