/**
 * `@framework/testing/playwright`: signed-in browsers for Playwright tests, without walking the sign-in UI. An
 * extended `test` whose `signIn({ as, roles?, organization?, twoFactor? })` fixture puts a real session into the
 * test's browser context, and `signedInStorageState` for a global setup. `@playwright/test` is an optional peer:
 * install it to use `test`; `signInBrowserContext` works with `playwright-core` alone.
 * @module
 */
import {
  test as base,
  type PlaywrightTestArgs,
  type PlaywrightTestOptions,
  type PlaywrightWorkerArgs,
  type PlaywrightWorkerOptions,
  type TestType,
} from '@playwright/test';
import type { Auth } from '@framework/auth';
import { signInBrowserContext } from './sign-in/browser-context.js';
import { createSignedInSession } from './sign-in/session.js';
import type { BrowserCookie, SignInOptions, SignInResult, SignInTarget } from './sign-in/types.js';

export { expect } from '@playwright/test';
export { signInBrowserContext, type CookieContext } from './sign-in/browser-context.js';
export { createSignedInSession } from './sign-in/session.js';
export type { BrowserCookie, SignInOptions, SignInResult, SignInTarget };

/**
 * Where the `signIn` fixture gets sessions (`test.use({ signInWith })`, or `use` in the Playwright config): the
 * app's `auth` when the app runs in the test's process, else the secret of the app's `testSignInRoute()`.
 * @example
 * ```ts
 * test.use({ signInWith: { secret: process.env.TEST_SIGN_IN_SECRET! } });
 * ```
 */
export type SignInWith = { auth: Auth } | { secret: string; basePath?: string };

/** The options `test` adds (set them with `test.use` or in the config's `use`). */
export interface SignInTestOptions {
  /** Where sessions come from. Required by `signIn`. */
  signInWith: SignInWith | undefined;
}

/** The fixtures `test` adds. */
export interface SignInFixtures {
  /**
   * Signs a user into this test's browser context (every page of it), creating the user when missing; resolves to
   * the user, the cookies set, and the TOTP key URI when `twoFactor` enrolled the user.
   */
  signIn(options: SignInOptions): Promise<SignInResult>;
}

function targetOf(signInWith: SignInWith | undefined, baseURL: string | undefined): SignInTarget {
  if (!signInWith)
    throw new Error('signIn: set `signInWith` ({ auth } or { secret }) with test.use() or in the config `use`');
  if (!baseURL) throw new Error('signIn: set `baseURL` in the Playwright config `use` (the app the browser visits)');
  return { ...signInWith, baseURL };
}

/**
 * Playwright's `test` with the `signIn` fixture and the `signInWith` option.
 * @example
 * ```ts
 * import { test, expect } from '@framework/testing/playwright';
 *
 * test.use({ signInWith: { secret: process.env.TEST_SIGN_IN_SECRET! } });
 *
 * test('admins see the audit log', async ({ page, signIn }) => {
 *   await signIn({ as: 'ada@example.com', roles: ['admin'] });
 *   await page.goto('/auth/admin/audit');
 *   await expect(page.getByRole('heading', { level: 1 })).toHaveText('Audit log');
 * });
 * ```
 */
export const test: TestType<
  PlaywrightTestArgs & PlaywrightTestOptions & SignInFixtures & SignInTestOptions,
  PlaywrightWorkerArgs & PlaywrightWorkerOptions
> = base.extend<SignInFixtures & SignInTestOptions>({
  signInWith: [undefined, { option: true }],
  signIn: async ({ context, baseURL, signInWith }, use) => {
    await use((options) => signInBrowserContext(context, targetOf(signInWith, baseURL), options));
  },
});

/** A Playwright storage state (`use: { storageState }`, `browser.newContext({ storageState })`). */
export interface SignedInStorageState {
  cookies: BrowserCookie[];
  origins: { origin: string; localStorage: { name: string; value: string }[] }[];
}

/**
 * The storage state of a browser signed in as `options.as`, for a global setup that signs in once: write it to a
 * file and point `use.storageState` at it.
 *
 * @throws Error when a step fails (see `createSignedInSession`).
 * @example
 * ```ts
 * // global-setup.ts
 * import { writeFile } from 'node:fs/promises';
 * import { signedInStorageState } from '@framework/testing/playwright';
 *
 * export default async function globalSetup() {
 *   const state = await signedInStorageState(
 *     { baseURL: 'http://127.0.0.1:3000', secret: process.env.TEST_SIGN_IN_SECRET! },
 *     { as: 'ada@example.com' },
 *   );
 *   await writeFile('.auth/ada.json', JSON.stringify(state));
 * }
 * ```
 */
export async function signedInStorageState(
  target: SignInTarget,
  options: SignInOptions,
): Promise<SignedInStorageState> {
  const { cookies } = await createSignedInSession(target, options);
  return { cookies, origins: [] };
}
