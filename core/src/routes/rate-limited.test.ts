import { describe, expect, it } from 'vitest';
import { makeFixture, ORIGIN, EMAIL, PASSWORD } from '../testing/fixtures.js';
import { createFixedWindowStorage, createLoginRateLimiter } from '../rate-limit.js';

describe('login rate limiting in the sign-in routes', () => {
  it('is on by default: the sixth attempt on an account is refused with 429, even with the right password', async () => {
    const { client } = await makeFixture('jwt');
    for (let i = 0; i < 5; i++) expect((await client().signIn(EMAIL, 'wrong-password')).status).toBe(401);
    const sixth = await client().signIn(EMAIL, PASSWORD);
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(sixth.headers.get('ratelimit-limit')).toBe('5');
    expect(((await sixth.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
    // Another account is not affected.
    expect((await client().signIn('other@example.com', 'x-password')).status).toBe(401);
  });

  it('answers browsers with the 429 page', async () => {
    const { client } = await makeFixture('database');
    for (let i = 0; i < 5; i++) await client().postForm('/auth/callback/credentials', { email: EMAIL, password: 'wrong-password' });
    const res = await client().postForm('/auth/callback/credentials', { email: EMAIL, password: PASSWORD });
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(await res.text()).toContain('Too many attempts');
  });

  it('counts per client IP as given by the adapter, across accounts', async () => {
    const login = createLoginRateLimiter(createFixedWindowStorage(), { limit: 3, window: 60 });
    const { auth, client } = await makeFixture('jwt', { rateLimit: { login } });
    const c = client();
    const attempt = async (email: string) => {
      const csrfToken = await c.csrf();
      return auth.handler(
        new Request(`${ORIGIN}/auth/callback/credentials`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', cookie: c.cookieHeader() },
          body: JSON.stringify({ csrfToken, email, password: 'nope-nope' }),
        }),
        { ip: '203.0.113.7' },
      );
    };
    for (const who of ['a@example.com', 'b@example.com', 'c@example.com']) expect((await attempt(who)).status).toBe(401);
    expect((await attempt('d@example.com')).status).toBe(429);
  });

  it('can be turned off', async () => {
    const { client } = await makeFixture('jwt', { rateLimit: { login: false } });
    for (let i = 0; i < 8; i++) expect((await client().signIn(EMAIL, 'wrong-password')).status).toBe(401);
  });
});
