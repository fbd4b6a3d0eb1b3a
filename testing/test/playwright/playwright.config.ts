// The Playwright run of `@framework/testing/playwright` (driven by fixture.test.ts, which starts the app and passes
// its URL and the sign-in secret in the environment).
import { defineConfig } from '@playwright/test';
import type { SignInTestOptions } from '@framework/testing/playwright';

export default defineConfig<SignInTestOptions>({
  testDir: '.',
  testMatch: 'signed-in.pw.ts',
  workers: 1,
  reporter: 'line',
  use: {
    baseURL: process.env.APP_URL,
    signInWith: { secret: process.env.TEST_SIGN_IN_SECRET! },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
    },
  },
});
