/**
 * The kit's default pages in a real Chromium against the running example:
 * credentials sign-in, sign-up and a password reset through the outbox, a magic link opened from the dev
 * outbox and confirmed on its page (and refused
 * the second time), passkey registration and passkey-only sign-in with
 * Chromium's virtual authenticator, and the error page for a bad link.
 * Screenshots go to test-results/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { passwordAccounts } from '@framework/auth';
import { start, stop, type Running } from './test-server.js';
import { chromiumAvailable, launchChromium, screenshot } from '@framework/example-shared/testing/browser';

const available = chromiumAvailable('the browser tests of the default auth pages');

describe.skipIf(!available)('default auth pages in Chromium', () => {
  let dir: string;
  let running: Running;
  let browser: Browser;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pages-browser-'));
    running = await start({ dbPath: join(dir, 'app.db') });
    await passwordAccounts(running.example.adapter).register({
      email: 'ada@example.com',
      password: 'analytical-engine',
      name: 'Ada',
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (running) await stop(running);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A fresh browser profile (own cookies). WebAuthn needs a localhost origin. */
  async function fresh(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ baseURL: running.origin });
    return { context, page: await context.newPage() };
  }

  it('signs in with email and password', async () => {
    const { context, page } = await fresh();
    await page.goto('/auth/signin');
    await screenshot(page, 'signin-page');
    // The credentials form: the sign-in page also has the username, phone and email-code forms.
    const credentials = page
      .locator('form')
      .filter({ has: page.getByRole('button', { name: 'Sign in with Email and password' }) });
    await credentials.getByLabel('Email', { exact: true }).fill('ada@example.com');
    await credentials.getByLabel('Password').fill('analytical-engine');
    await credentials.getByRole('button', { name: 'Sign in with Email and password' }).click();
    await page.waitForURL(`${running.origin}/`);
    expect(await page.locator('#user-email').textContent()).toBe('ada@example.com');
    await screenshot(page, 'home-signed-in');
    await context.close();
  });

  it('signs up on the kit’s page, then resets the password from the outbox link and signs in with the new one', async () => {
    const { context, page } = await fresh();
    await page.goto('/auth/signin');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(/\/auth\/signup/);
    await screenshot(page, 'signup-page');
    // Exactly: the form also asks for a username (username()'s sign-up field).
    await page.getByLabel('Name', { exact: true }).fill('Grace');
    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByLabel('Password').fill('hopper-1906');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${running.origin}/`);
    expect(await page.locator('#user-email').textContent()).toBe('grace@example.com');

    const other = await browser.newContext({ baseURL: running.origin });
    const tab = await other.newPage();
    await tab.goto('/auth/signin');
    await tab.getByRole('link', { name: 'Forgot password?' }).click();
    await tab.getByLabel('Email').fill('grace@example.com');
    await tab.getByRole('button', { name: 'Send the link' }).click();
    expect(await tab.textContent('h1')).toBe('Check your email');
    await tab.goto('/dev/outbox');
    const link = await tab.locator('a[href*="/auth/password/reset"]').first().getAttribute('href');
    await tab.goto(link!);
    await screenshot(tab, 'reset-password-page');
    await tab.getByLabel('New password').fill('a brand new password');
    await tab.getByRole('button', { name: 'Set password' }).click();
    await tab.waitForURL(/\/auth\/signin/);
    // The credentials form: the sign-in page also has the username, phone and email-code forms.
    const credentials = tab
      .locator('form')
      .filter({ has: tab.getByRole('button', { name: 'Sign in with Email and password' }) });
    await credentials.getByLabel('Email', { exact: true }).fill('grace@example.com');
    await credentials.getByLabel('Password').fill('a brand new password');
    await credentials.getByRole('button', { name: 'Sign in with Email and password' }).click();
    await tab.waitForURL(`${running.origin}/`);
    expect(await tab.locator('#user-email').textContent()).toBe('grace@example.com');
    // The reset ended the first browser's session.
    await page.reload();
    expect(await page.locator('#user-email').count()).toBe(0);
    await other.close();
    await context.close();
  });

  it('signs in with a magic link from the dev outbox, once', async () => {
    const { context, page } = await fresh();
    await page.goto('/auth/signin');
    await page.locator('#email-address').fill('magic@example.com');
    await page.getByRole('button', { name: 'Sign in with Email', exact: true }).click();
    await page.waitForURL(/\/auth\/verify-request/);
    expect(await page.textContent('h1')).toBe('Check your email');
    await screenshot(page, 'verify-request');

    await page.goto('/dev/outbox');
    await screenshot(page, 'dev-outbox');
    const link = await page.locator('a[href*="/auth/callback/email"]').first().getAttribute('href');
    expect(link).toContain('email=magic%40example.com');
    // Opening the link shows a page; only its button signs in (link scanners never consume it).
    await page.goto(link!);
    await screenshot(page, 'magic-link-confirm');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${running.origin}/`);
    expect(await page.locator('#user-email').textContent()).toBe('magic@example.com');

    const again = await context.newPage();
    await again.goto(link!);
    await again.getByRole('button', { name: 'Sign in', exact: true }).click();
    await again.waitForURL(/\/auth\/error\?error=Verification/);
    expect(await again.textContent('[role=alert]')).toContain('no longer valid');
    await screenshot(again, 'magic-link-reused');
    await context.close();
  });

  it('registers a passkey, signs out, and signs in with the passkey alone', async () => {
    const { context, page } = await fresh();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    // Sign in with the password first, then add a passkey.
    await page.goto('/auth/signin');
    // The credentials form: the sign-in page also has the username, phone and email-code forms.
    const credentials = page
      .locator('form')
      .filter({ has: page.getByRole('button', { name: 'Sign in with Email and password' }) });
    await credentials.getByLabel('Email', { exact: true }).fill('ada@example.com');
    await credentials.getByLabel('Password').fill('analytical-engine');
    await credentials.getByRole('button', { name: 'Sign in with Email and password' }).click();
    await page.waitForURL(`${running.origin}/`);
    await page.goto('/auth/passkey');
    await page.locator('#passkey-name').fill('Virtual key');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.locator('#passkey-list strong', { hasText: 'Virtual key' }).waitFor({ timeout: 10_000 });
    await screenshot(page, 'passkeys');
    const stored = await running.example.adapter.listAuthenticators(
      (await running.example.adapter.getUserByEmail('ada@example.com'))!.id,
    );
    expect(stored.map((a) => a.name)).toContain('Virtual key');

    // Sign out through the confirmation page.
    await page.goto('/auth/signout');
    await screenshot(page, 'signout-page');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${running.origin}/`);
    expect(await page.locator('#user-email').count()).toBe(0);

    // Passkey only: no email typed.
    await page.goto('/auth/signin');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(`${running.origin}/`, { timeout: 10_000 });
    expect(await page.locator('#user-email').textContent()).toBe('ada@example.com');
    await context.close();
  });

  it('shows the error page for a bad link, without raw error text', async () => {
    const { context, page } = await fresh();
    await page.goto('/auth/callback/email?token=not-a-token&email=ada%40example.com');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/auth\/error\?error=Verification/);
    expect(await page.textContent('[role=alert]')).toBe(
      'The sign-in link is no longer valid. It may have been used already or it may have expired.',
    );
    expect(await page.content()).not.toMatch(/Error:|at .*\.ts/);
    await screenshot(page, 'error-page');
    await context.close();
  });
});
