/**
 * `signInBrowserContext`: puts a real session into a browser context's cookies, no UI walk.
 * @module
 */
import { createSignedInSession } from './session.js';
import type { BrowserCookie, SignInOptions, SignInResult, SignInTarget } from './types.js';

/** What {@link signInBrowserContext} needs of a browser context: Playwright's `BrowserContext` has it. */
export interface CookieContext {
  addCookies(cookies: BrowserCookie[]): Promise<void>;
}

/**
 * Signs `options.as` in (see `createSignedInSession`) and adds the session's cookies to `context`, so every page
 * of it is signed in. Works with `@playwright/test` and with `playwright-core`.
 *
 * @throws Error when a step fails (see `createSignedInSession`).
 * @example
 * ```ts
 * import { chromium } from 'playwright-core';
 * import { signInBrowserContext } from '@framework/testing/playwright';
 *
 * const context = await (await chromium.launch()).newContext({ baseURL });
 * await signInBrowserContext(context, { auth, baseURL }, { as: 'ada@example.com', roles: ['admin'] });
 * ```
 */
export async function signInBrowserContext(
  context: CookieContext,
  target: SignInTarget,
  options: SignInOptions,
): Promise<SignInResult> {
  const result = await createSignedInSession(target, options);
  await context.addCookies(result.cookies);
  return result;
}
