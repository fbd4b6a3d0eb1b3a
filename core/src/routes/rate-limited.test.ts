import { describe, expect, it } from 'vitest';
import { makeFixture, ORIGIN, EMAIL, PASSWORD } from '../testing/fixtures.js';
import { createFixedWindowStorage, createLoginRateLimiter } from '../rate-limit.js';
import { passkey } from '../plugins/passkey/provider.js';
import { credentials } from '../providers/credentials.js';
import { email } from '../providers/email.js';

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
    for (let i = 0; i < 5; i++)
      await client().postForm('/auth/callback/credentials', { email: EMAIL, password: 'wrong-password' });
    const res = await client().postForm('/auth/callback/credentials', { email: EMAIL, password: PASSWORD });
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(await res.text()).toContain('Too many attempts');
  });

  /** A sign-in POST as from `ip`, with a valid CSRF token. */
  function from(fixture: Awaited<ReturnType<typeof makeFixture>>) {
    const c = fixture.client();
    return async (ip: string, email: string, password: string) => {
      const csrfToken = await c.csrf();
      return fixture.auth.handler(
        new Request(`${ORIGIN}/auth/callback/credentials`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', cookie: c.cookieHeader() },
          body: JSON.stringify({ csrfToken, email, password }),
        }),
        { ip },
      );
    };
  }

  it('counts every attempt per client IP (ipLimit), across accounts', async () => {
    const login = createLoginRateLimiter(createFixedWindowStorage(), { limit: 3, ipLimit: 4, window: 60 });
    const attempt = from(await makeFixture('jwt', { rateLimit: { login } }));
    for (const who of ['a@example.com', 'b@example.com', 'c@example.com'])
      expect((await attempt('203.0.113.7', who, 'nope-nope')).status).toBe(401);
    expect((await attempt('203.0.113.7', EMAIL, PASSWORD)).status).toBe(200);
    expect((await attempt('203.0.113.7', 'd@example.com', 'nope-nope')).status).toBe(429);
    expect((await attempt('198.51.100.1', 'd@example.com', 'nope-nope')).status).toBe(401);
  });

  it('never locks out the owner: failures from elsewhere do not refuse a correct password from a new IP', async () => {
    const attempt = from(await makeFixture('jwt'));
    for (let i = 0; i < 5; i++) expect((await attempt('203.0.113.9', EMAIL, 'wrong-password')).status).toBe(401);
    expect((await attempt('203.0.113.9', EMAIL, PASSWORD)).status).toBe(429);
    expect((await attempt('198.51.100.20', EMAIL, PASSWORD)).status).toBe(200);
  });

  it('counts failures only: signing in many times is never refused, and a success resets the failures', async () => {
    const attempt = from(await makeFixture('database'));
    for (let i = 0; i < 12; i++) expect((await attempt('203.0.113.10', EMAIL, PASSWORD)).status).toBe(200);
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) expect((await attempt('203.0.113.10', EMAIL, 'wrong-password')).status).toBe(401);
      expect((await attempt('203.0.113.10', EMAIL, PASSWORD)).status).toBe(200);
    }
  });

  it('checks CSRF before the limiter: cross-site or token-less posts spend nobody’s budget', async () => {
    const fixture = await makeFixture('jwt');
    for (let i = 0; i < 20; i++) {
      const forged = await fixture.auth.handler(
        new Request(`${ORIGIN}/auth/callback/credentials`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
          body: new URLSearchParams({ email: EMAIL, password: 'wrong-password' }).toString(),
        }),
        { ip: '203.0.113.11' },
      );
      expect(forged.status).toBe(403);
      const tokenless = await fixture.auth.handler(
        new Request(`${ORIGIN}/auth/callback/credentials`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ email: EMAIL, password: 'wrong-password' }),
        }),
        { ip: '203.0.113.11' },
      );
      expect(tokenless.status).toBe(403);
    }
    expect((await from(fixture)('203.0.113.11', EMAIL, PASSWORD)).status).toBe(200);
  });

  it('limits the passkey options endpoints per client IP', async () => {
    const login = createLoginRateLimiter(createFixedWindowStorage(), { limit: 2, ipLimit: 3, window: 60 });
    const fixture = await makeFixture('database', {
      rateLimit: { login },
      providers: [passkey({ rpName: 'T', rpId: 'app.test', origin: ORIGIN })],
    });
    const c = fixture.client();
    const options = async () => {
      const csrfToken = await c.csrf();
      return fixture.auth.handler(
        new Request(`${ORIGIN}/auth/passkey/authenticate/options`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', cookie: c.cookieHeader() },
          body: JSON.stringify({ csrfToken }),
        }),
        { ip: '203.0.113.12' },
      );
    };
    for (let i = 0; i < 3; i++) expect((await options()).status).toBe(200);
    expect((await options()).status).toBe(429);
  });

  it('cannot be dodged by another spelling of the path, an empty email, or parallel guesses', async () => {
    const sent: string[] = [];
    const fixture = await makeFixture('jwt', {
      providers: [
        credentials({
          credentials: { username: { label: 'U', type: 'text' }, password: { label: 'P', type: 'password' } },
          authorize: (c) => (c.username === 'alice' && c.password === PASSWORD ? { id: 'alice' } : null),
        }),
        email({ from: 'login@app.test', sendVerificationRequest: async (p) => void sent.push(p.identifier) }),
      ],
    });
    const c = fixture.client();
    const post = async (path: string, body: Record<string, string>) => {
      const csrfToken = await c.csrf();
      return fixture.auth.handler(
        new Request(`${ORIGIN}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', cookie: c.cookieHeader() },
          body: JSON.stringify({ csrfToken, ...body }),
        }),
        { ip: '203.0.113.40' },
      );
    };
    // Magic links: encoded, doubled-slash and trailing-slash paths share one budget.
    const paths = [
      '/auth/signin/email',
      '/auth/signin/%65mail',
      '/auth/signin//email',
      '/auth/signin/email/',
      '/auth/signin/%65%6d%61%69%6c',
    ];
    const statuses = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await post(paths[i % paths.length]!, { email: 'victim@example.com' })).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(sent).toHaveLength(5);
    // Credentials: an empty `email` does not hide the declared `username`.
    const guesses = [];
    for (let i = 0; i < 7; i++)
      guesses.push(
        (await post('/auth/callback/credentials', { email: '', username: 'alice', password: `guess-${i}` })).status,
      );
    expect(guesses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  it('reserves the failure slot before authorize: 40 parallel guesses get at most 5 tries', async () => {
    let tries = 0;
    const fixture = await makeFixture('jwt', {
      providers: [
        credentials({
          credentials: { email: { label: 'E', type: 'email' }, password: { label: 'P', type: 'password' } },
          authorize: async () => (tries++, null),
        }),
      ],
    });
    const c = fixture.client();
    const csrfToken = await c.csrf();
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fixture.auth.handler(
          new Request(`${ORIGIN}/auth/callback/credentials`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json', cookie: c.cookieHeader() },
            body: JSON.stringify({ csrfToken, email: EMAIL, password: `guess-${i}` }),
          }),
          { ip: '203.0.113.41' },
        ),
      ),
    );
    expect(tries).toBeLessThanOrEqual(5);
    expect(results.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(35);
  });

  it('nobody can block another person’s magic links: the per-address budget is per sender IP', async () => {
    const sent: string[] = [];
    const fixture = await makeFixture('jwt', {
      providers: [
        email({ from: 'login@app.test', sendVerificationRequest: async (p) => void sent.push(p.identifier) }),
      ],
    });
    const c = fixture.client();
    const send = async (ip: string) => {
      const csrfToken = await c.csrf();
      return fixture.auth.handler(
        new Request(`${ORIGIN}/auth/signin/email`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', cookie: c.cookieHeader() },
          body: JSON.stringify({ csrfToken, email: 'victim@example.com' }),
        }),
        { ip },
      );
    };
    for (let i = 0; i < 6; i++) await send('203.0.113.42');
    expect((await send('203.0.113.42')).status).toBe(429);
    expect((await send('198.51.100.42')).status).toBe(200);
  });

  it('can be turned off', async () => {
    const { client } = await makeFixture('jwt', { rateLimit: { login: false } });
    for (let i = 0; i < 8; i++) expect((await client().signIn(EMAIL, 'wrong-password')).status).toBe(401);
  });
});
