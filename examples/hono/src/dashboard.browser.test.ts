/**
 * The dashboard in a real Chromium against the running example: open it,
 * see the signed webhook's run arrive over the live tail, make the
 * `monthly-report` consumer fail into the dead-letter list, press Replay and
 * see the run succeed. Screenshots go to test-results/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { start, stop, type Running } from './test-server.js';
import { chromiumAvailable, launchChromium, screenshot } from '@framework/example-shared/testing/browser';
import { signDemoWebhook } from '../app/triggers/_webhook-signing.js';

const available = chromiumAvailable('the browser tests of the dashboard');

describe.skipIf(!available)('dashboard in Chromium', () => {
  let dir: string;
  let running: Running;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dashboard-browser-'));
    running = await start({ dbPath: join(dir, 'app.db'), dashboard: true });
    browser = await launchChromium();
    page = await (await browser.newContext({ baseURL: running.origin })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
    if (running) await stop(running);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('opens the dashboard with every trigger, the next schedule occurrences and the chart', async () => {
    await page.goto('/_framework/');
    await page.getByRole('heading', { name: 'Triggers', level: 1 }).waitFor();
    for (const name of ['daily-cleanup', 'send-welcome-mail', 'signed-webhook', 'monthly-report']) {
      expect(await page.locator(`tr[data-trigger="${name}"]`).count(), name).toBe(1);
    }
    expect(await page.locator('tr[data-trigger="daily-cleanup"] ol.next li').count()).toBe(5);
    await page.locator('#chart .uplot').waitFor();
    await screenshot(page, 'dashboard-overview');
  });

  it('shows the signed webhook run live, without a reload, and its log lines', async () => {
    await page.goto('/_framework/');
    await page.waitForFunction(() => document.readyState === 'complete');
    const body = JSON.stringify({ event: 'ping', id: 7 });
    const res = await fetch(`${running.base}/webhooks/demo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signDemoWebhook(body, { secret: 'dev-webhook-secret' }) },
      body,
    });
    expect(res.status).toBeLessThan(300);
    const row = page.locator('#runs tr[data-run]', { hasText: 'signed-webhook' }).first();
    await row.waitFor();
    expect(await row.locator('.status').textContent()).toBe('ok');
    await screenshot(page, 'dashboard-live-run');
    await row.getByRole('link', { name: 'signed-webhook' }).click();
    await page.getByRole('heading', { name: 'Run of signed-webhook' }).waitFor();
    expect(await page.locator('tr', { hasText: 'Trace id' }).textContent()).toMatch(/[0-9a-f]{32}/);
  });

  it('lists a failed queue message among the dead letters; Replay makes it succeed', async () => {
    expect((await fetch(`${running.base}/dev/reports/report-2026-10`, { method: 'PUT' })).status).toBe(202);
    await expect
      .poll(
        async () => (await running.example.runtime.inspectQueues()).find((q) => q.queue === 'reports')?.deadLettered,
      )
      .toBe(1);
    await page.goto('/_framework/');
    const letter = page.locator('#dead-letters tr[data-message]', { hasText: 'report-2026-10' });
    await letter.waitFor();
    expect(await letter.textContent()).toContain('report renderer timed out');
    expect(await page.locator('tr[data-queue="reports"]').textContent()).toContain('reports.dead');
    await screenshot(page, 'dashboard-dead-letter');

    await letter.getByRole('button', { name: 'Replay' }).click();
    await page.getByRole('status').filter({ hasText: 'Replayed message' }).waitFor();
    await expect.poll(() => running.example.reports.rendered.includes('report-2026-10')).toBe(true);
    await page.reload();
    const okRun = page.locator('#runs tr[data-run]', { hasText: 'monthly-report' }).first();
    expect(await okRun.locator('.status').textContent()).toBe('ok');
    expect(await page.locator('#dead-letters [data-empty]').count()).toBe(1);
    await screenshot(page, 'dashboard-replayed');
  });
});
