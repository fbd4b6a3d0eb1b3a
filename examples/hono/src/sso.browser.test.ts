/**
 * Enterprise SSO in a real Chromium, as the README tells a person to try it: the example app and Acme's company
 * IdP (a second kit app, `company-idp.ts`) run on their own ports, the SSO seed registers the IdP for the
 * organization Acme and proves `acme.test` through the dev stand-in for DNS; then the sign-in page → "Sign in with
 * SSO" → ada@acme.test → the IdP's sign-in page → consent → back in the app, signed in and a member of Acme with
 * the role the provider maps to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { start, stop, type Running } from './test-server.js';
import { startCompanyIdp, COMPANY_EMPLOYEE, type CompanyIdp } from './company-idp.js';
import { createDevDns } from './dev-dns.js';
import { ACME, ACME_SSO_ROLE, seedAcmeSso } from './sso-seed.js';
import { DEMO_PASSWORD, DEMO_USERS } from './seed.js';
import { chromiumAvailable, launchChromium, screenshot } from '@framework/example-shared/testing/browser';

const available = chromiumAvailable('the browser test of enterprise SSO');

describe.skipIf(!available)('enterprise SSO with the company IdP, in Chromium', () => {
  let dir: string;
  let running: Running;
  let idp: CompanyIdp;
  let browser: Browser;
  let acmeId: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sso-browser-'));
    const dns = createDevDns();
    running = await start({ dbPath: join(dir, 'app.db'), likeNpmStart: true, ssoResolveTxt: dns.resolveTxt });
    idp = await startCompanyIdp({ appOrigin: running.origin });
    acmeId = await seedAcmeSso({ ...running.example, origin: running.origin }, idp, dns);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await idp?.stop();
    if (running) await stop(running);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('signs ada@acme.test in through the company IdP, as a member of Acme with the mapped role', async () => {
    // The app is on localhost, the IdP on 127.0.0.1: two hosts, so their cookies stay apart.
    expect(new URL(idp.issuer).hostname).toBe('127.0.0.1');
    const context = await browser.newContext({ baseURL: running.origin });
    const page = await context.newPage();
    await page.goto('/auth/signin');
    await page.getByRole('link', { name: 'Sign in with SSO' }).click();
    await page.waitForURL(/\/auth\/sso\/sign-in/);
    await screenshot(page, 'sso-sign-in');
    const sso = page.locator('form[action="/auth/sso/sign-in"]');
    await sso.getByLabel('Work email').fill(COMPANY_EMPLOYEE.email);
    await sso.getByRole('button', { name: 'Continue' }).click();

    // The company IdP's own sign-in page (the kit's default page, on the IdP's origin).
    await page.waitForURL((url) => url.origin === new URL(idp.issuer).origin && url.pathname === '/auth/signin');
    await screenshot(page, 'sso-company-idp-sign-in');
    const credentials = page
      .locator('form')
      .filter({ has: page.getByRole('button', { name: 'Sign in with Email and password' }) });
    await credentials.getByLabel('Email', { exact: true }).fill(COMPANY_EMPLOYEE.email);
    await credentials.getByLabel('Password').fill(COMPANY_EMPLOYEE.password);
    await credentials.getByRole('button', { name: 'Sign in with Email and password' }).click();

    // Its consent page names the example app; Allow sends the browser back with a code.
    const allow = page.getByRole('button', { name: 'Allow' });
    await allow.waitFor();
    expect(await page.getByText('Framework example app').count()).toBeGreaterThan(0);
    await screenshot(page, 'sso-company-idp-consent');
    await allow.click();

    await page.waitForURL(`${running.origin}/`);
    expect(await page.locator('#user-email').textContent()).toBe(COMPANY_EMPLOYEE.email);
    await screenshot(page, 'sso-signed-in');

    // A member of Acme with the provider's role, as this browser's session sees it.
    const list = await page.request.get('/auth/org/list', { headers: { accept: 'application/json' } });
    const { organizations } = (await list.json()) as { organizations: { id: string; slug: string; role: string }[] };
    expect(organizations).toEqual([expect.objectContaining({ id: acmeId, slug: ACME.slug, role: ACME_SSO_ROLE })]);
    await context.close();
  });

  it('shows Acme’s owner the way to its SSO settings on the organizations page', async () => {
    const context = await browser.newContext({ baseURL: running.origin });
    const page = await context.newPage();
    await page.goto('/auth/signin');
    const credentials = page
      .locator('form')
      .filter({ has: page.getByRole('button', { name: 'Sign in with Email and password' }) });
    await credentials.getByLabel('Email', { exact: true }).fill(DEMO_USERS[0].email);
    await credentials.getByLabel('Password').fill(DEMO_PASSWORD);
    await credentials.getByRole('button', { name: 'Sign in with Email and password' }).click();
    await page.waitForURL(`${running.origin}/`);
    await page.goto('/auth/org');
    await page.locator('form[action="/auth/org/set-active"]').getByRole('button').first().click();
    await page.waitForURL(/\/auth\/org$/);
    expect(await page.locator('#active-org').textContent()).toBe(ACME.name);
    await page.getByRole('link', { name: 'Single sign-on (SSO) settings' }).click();
    await page.waitForURL(/\/auth\/sso\/manage\?organizationId=/);
    expect(new URL(page.url()).searchParams.get('organizationId')).toBe(acmeId);
    expect(await page.getByText('acme.test').count()).toBeGreaterThan(0);
    await screenshot(page, 'sso-manage');
    await context.close();
  });
});
