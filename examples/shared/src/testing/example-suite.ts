/**
 * The tests every built example runs (examples/sveltekit and
 * examples/remix): the example is built and started once per test file, then
 * driven by the shared adapter conformance suite over HTTP, and one browser
 * scenario in Chromium signs in through the page's store component
 * (`#store-status`, `#store-user`, a form labelled Email / Password with a
 * "Sign in here" button) and expects the server-rendered `#user-email` too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieClient, csrfFrom, runAdapterConformance, type ConformanceOptions } from '@framework/testing/conformance';
import { chromiumAvailable, launchChromium, screenshot } from './browser.js';
import { expectNavLinksServed } from './nav-links.js';
import { TEST_ADMIN, TEST_WEBHOOK_SECRET, type ServerProcess } from './process.js';
import { signDemoWebhook } from '../../../hono/app/triggers/_webhook-signing.js';

/** Options of {@link runExampleSuite}. */
export interface ExampleSuiteOptions {
  /** The test titles' name of the example. */
  name: string;
  /** Builds and starts the example (once for the file). */
  start(): Promise<ServerProcess>;
  /** Screenshot file name (in test-results/) of the signed-in page. */
  screenshot: string;
  /** Passed on to the conformance suite's admin scenario. */
  forbiddenPage?: boolean;
}

/** Declares the conformance suite and the browser scenario for one built example. */
export function runExampleSuite(options: ExampleSuiteOptions): void {
  let pending: Promise<ServerProcess> | undefined;
  const app = () => (pending ??= options.start());
  beforeAll(() => app(), 240_000);
  afterAll(async () => (await pending)?.stop());

  const conformance: ConformanceOptions = {
    api: { path: '/api/me' },
    admin: { path: '/admin', ...TEST_ADMIN, ...(options.forbiddenPage ? { forbiddenPage: true } : {}) },
    webhook: {
      path: '/webhooks/demo',
      sign: (body) => signDemoWebhook(body, { secret: TEST_WEBHOOK_SECRET }),
    },
  };
  runAdapterConformance(
    options.name,
    async () => ({ baseUrl: (await app()).baseUrl, close: async () => {} }),
    conformance,
  );

  it(`${options.name}: links only to pages it serves (no dead nav links)`, async () => {
    const tab = cookieClient((await app()).baseUrl);
    await expectNavLinksServed((path, init) => tab.fetch(path, init));
  });

  const browserReady = chromiumAvailable(`the ${options.name} browser scenario`);
  describe(`${options.name} in Chromium`, () => {
    it.skipIf(!browserReady)(
      'signs in through the store component and shows the user from the store and the server',
      async () => {
        const { baseUrl } = await app();
        const email = `${options.screenshot}-${Date.now().toString(36)}@example.com`;
        const password = 'correct-horse-battery';
        const tab = cookieClient(baseUrl);
        const form = await tab.fetch('/auth/signup');
        expect(
          (await tab.form('/auth/signup', { csrfToken: csrfFrom(await form.text()), email, password, name: 'Browser' }))
            .status,
        ).toBe(303);

        const browser = await launchChromium();
        try {
          const page = await browser.newPage();
          await page.goto(`${baseUrl}/`);
          await page.locator('#store-status', { hasText: 'unauthenticated' }).waitFor();
          await page.getByLabel('Email').fill(email);
          await page.getByLabel('Password').fill(password);
          await page.getByRole('button', { name: 'Sign in here' }).click();
          await page.locator('#store-user', { hasText: email }).waitFor({ timeout: 10_000 });
          await page.locator('#user-email', { hasText: email }).waitFor({ timeout: 10_000 });
          await screenshot(page, options.screenshot);
          expect(await page.locator('#store-status').textContent()).toBe('authenticated');
        } finally {
          await browser.close();
        }
      },
      60_000,
    );
  });
}
