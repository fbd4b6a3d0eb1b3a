/**
 * Debian's Chromium for browser tests, driven by playwright-core (no browser
 * is ever downloaded). Without Chromium the tests are skipped with a printed
 * reason in the run's closing summary, except under CI=true, where they fail.
 */
import { existsSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { callerFile, serviceMissing } from '../../../../test-support/services.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether Chromium is there; notes the skip for the closing summary, and throws under CI=true. */
export function chromiumAvailable(what: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  return serviceMissing('chromium', `no executable at ${CHROMIUM}`, `${what} (${callerFile()})`);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

/** `test-results/` at the repository root (not committed). */
export const RESULTS_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../../test-results');

/** Saves a full-page screenshot as `test-results/<name>.png` for a reviewer to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  await page.screenshot({ path: join(RESULTS_DIR, `${name}.png`), fullPage: true });
}
