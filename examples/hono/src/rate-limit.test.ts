/**
 * The example with the kit's default login limit, over real HTTP: the sixth
 * wrong password within 15 minutes gets the 429 page, and then even the right
 * password is refused until the window resets.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { passwordAccounts } from '@framework/auth';
import { browser, csrfFrom, form, start, stop } from './test-server.js';

describe('example app: login rate limit', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'framework-ratelimit-'));
  const running = await start({ dbPath: join(dir, 'app.db'), rateLimit: {} });
  await passwordAccounts(running.example.adapter).register({ email: 'limit@example.com', password: 'right-password' });
  afterAll(async () => {
    await stop(running);
    await rm(dir, { recursive: true, force: true });
  });

  const attempt = async (password: string) => {
    const b = browser();
    const page = await (await b.fetch(`${running.base}/auth/signin`)).text();
    return b.fetch(`${running.base}/auth/callback/credentials`, form({ csrfToken: csrfFrom(page), email: 'limit@example.com', password }));
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
