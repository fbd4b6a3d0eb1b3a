/**
 * The example's organizations page in a real Chromium: Ada creates a team and invites Grace, the invitation link
 * comes from the dev outbox, Grace accepts it in her own browser, and both see her on the members list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { signInBrowserContext } from '@framework/testing/playwright';
import { start, stop, type Running } from './test-server.js';
import { chromiumAvailable, launchChromium, screenshot } from '@framework/example-shared/testing/browser';

const available = chromiumAvailable('the browser tests of the organizations page');

describe.skipIf(!available)('organizations page in Chromium', () => {
  let dir: string;
  let running: Running;
  let browser: Browser;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'org-browser-'));
    running = await start({ dbPath: join(dir, 'app.db') });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (running) await stop(running);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A browser signed in by the fixture (the user is created with a verified email); the sign-in page has its own tests. */
  async function signedIn(email: string): Promise<Page> {
    const context = await browser.newContext({ baseURL: running.origin });
    await signInBrowserContext(context, { auth: running.example.auth, baseURL: running.origin }, { as: email });
    const page = await context.newPage();
    await page.goto('/');
    return page;
  }

  it('invites through the outbox and the invitee accepts in their own browser', async () => {
    const ada = await signedIn('ada@example.com');
    await ada.getByRole('link', { name: 'Your organizations' }).click();
    await ada.waitForURL(/\/auth\/org$/);
    await ada.getByLabel('Name').fill('Acme');
    await ada.getByRole('button', { name: 'Create' }).click();
    await ada.waitForURL(/\/auth\/org$/);
    expect(await ada.locator('#active-org').textContent()).toBe('Acme');
    await ada.getByLabel('Email').fill('grace@example.com');
    await ada.locator('#org-invite-role').selectOption('editor');
    await ada.getByRole('button', { name: 'Send invitation' }).click();
    await ada.waitForURL(/\/auth\/org$/);
    expect(await ada.getByText('grace@example.com as editor').count()).toBe(1);
    await screenshot(ada, 'org-invited');

    await ada.goto('/dev/outbox');
    const link = await ada.locator('article.mail', { hasText: 'Join Acme' }).locator('a').first().getAttribute('href');
    expect(link).toContain('/auth/org/invitation?token=');

    const grace = await signedIn('grace@example.com');
    await grace.goto(link!);
    expect(await grace.getByRole('heading', { level: 1 }).textContent()).toBe('Join Acme');
    await screenshot(grace, 'org-invitation');
    await grace.getByRole('button', { name: 'Accept' }).click();
    await grace.waitForURL(/\/auth\/org$/);
    expect(await grace.locator('#active-org').textContent()).toBe('Acme');
    expect(await grace.locator('tr[data-member="grace@example.com"] .role').textContent()).toBe('editor');

    await ada.goto('/auth/org');
    expect(await ada.locator('tr[data-member="grace@example.com"] .role').textContent()).toBe('editor');
    await screenshot(ada, 'org-members');
  });
});
