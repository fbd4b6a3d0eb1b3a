/**
 * The example with the kit's default login limit, in-process through
 * @framework/testing: the sixth wrong password within 15 minutes gets the
 * 429 page, and then even the right password is refused until the window
 * resets.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { passwordAccounts } from '@framework/auth';
import { createTestContext } from '@framework/testing';
import { createExampleApp } from './app.js';
import { csrfFrom, form } from './test-server.js';

describe('example app: login rate limit', async () => {
  const example = await createExampleApp({ dbPath: ':memory:', mailLog: () => {}, rateLimit: {} });
  const ctx = await createTestContext({
    app: example,
    seed: () => passwordAccounts(example.adapter).register({ email: 'limit@example.com', password: 'right-password' }),
  });
  afterAll(() => ctx.cleanup());

  const attempt = async (password: string) => {
    const page = await (await ctx.fetch('/auth/signin')).text();
    return ctx.fetch(
      '/auth/callback/credentials',
      form({ csrfToken: csrfFrom(page), email: 'limit@example.com', password }),
    );
  };

  it('refuses the sixth attempt with the 429 page, and the right password after it', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await attempt('wrong-password');
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toContain('error=CredentialsSignin');
    }
    const sixth = await attempt('wrong-password');
    expect(sixth.status).toBe(429);
    // Fixed windows of 900 s: the wait is what is left of the current window.
    const retryAfter = Number(sixth.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(await sixth.text()).toContain('Too many attempts');
    const right = await attempt('right-password');
    expect(right.status).toBe(429);
  });
});

describe('example app: sign-up limit', async () => {
  const example = await createExampleApp({ dbPath: ':memory:', mailLog: () => {} });
  const ctx = await createTestContext({ app: example });
  afterAll(() => ctx.cleanup());

  it('counts sign-ups on the login limiter after the CSRF check: a flood on one address is refused with 429', async () => {
    const signUp = async () => {
      const page = await (await ctx.fetch('/auth/signup')).text();
      return ctx.fetch(
        '/auth/signup',
        form({ csrfToken: csrfFrom(page), email: 'flood@example.com', password: 'a-long-password', name: 'F' }),
      );
    };
    const forged = await ctx.fetch(
      '/auth/signup',
      form({ csrfToken: 'forged', email: 'flood@example.com', password: 'a-long-password' }),
    );
    expect(forged.status).toBe(403);
    expect((await signUp()).status).toBe(303);
    for (let i = 0; i < 5; i++) expect((await signUp()).status).toBe(409);
    const refused = await signUp();
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain('Too many attempts');
  });
});
