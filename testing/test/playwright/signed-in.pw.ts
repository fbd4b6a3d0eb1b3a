// Runs under `playwright test` (see playwright.config.ts): the fixture signs the page's context in through the
// app's testSignInRoute().
import { expect, test } from '@framework/testing/playwright';

test('the signIn fixture signs the browser in, with roles', async ({ page, signIn }) => {
  const { user } = await signIn({ as: 'ada@example.com', roles: ['admin'] });
  expect(user.email).toBe('ada@example.com');
  await page.goto('/me');
  await expect(page.locator('body')).toContainText('"email":"ada@example.com"');
  await expect(page.locator('body')).toContainText('"roles":["admin"]');
});

test('each test gets a browser that is not signed in', async ({ page }) => {
  const response = await page.goto('/me');
  expect(response?.status()).toBe(401);
});
