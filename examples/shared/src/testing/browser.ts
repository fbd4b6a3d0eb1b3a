/**
 * Debian's Chromium for browser tests, driven by playwright-core (no browser
 * is ever downloaded). Without Chromium the tests are skipped with a printed
 * reason, except under CI=true, where they fail.
 */
import { existsSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether Chromium is there; prints why not, and throws under CI=true. */
export function chromiumAvailable(what: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  const message = `Chromium not found at ${CHROMIUM}: ${what} cannot run`;
  if (process.env.CI === 'true') throw new Error(`${message} (CI=true: failing instead of skipping)`);
  console.warn(`SKIPPED: ${message}. Install Debian's chromium package (apt-get install -y chromium) or set CHROMIUM_PATH.`);
  return false;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/** `test-results/` at the repository root (not committed). */
export const RESULTS_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../../test-results');

/** Saves a full-page screenshot as `test-results/<name>.png` for a reviewer to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  await page.screenshot({ path: join(RESULTS_DIR, `${name}.png`), fullPage: true });
}
