import { afterEach, describe, expect, it, vi } from 'vitest';
import { getSession, signIn, signOut } from '../src/index.js';
import { ADA, fakeServer } from './fake-fetch.js';

function page(href = 'http://app.test/dashboard') {
  const assign = vi.fn();
  vi.stubGlobal('location', { href, assign });
  return assign;
}

afterEach(() => void vi.unstubAllGlobals());

describe('signIn', () => {
  it('fetches a CSRF token, then posts the credentials as JSON to /callback/credentials', async () => {
    const server = fakeServer();
    const result = await signIn('credentials', {
      email: 'ada@example.com',
      password: 'right-password',
      callbackUrl: '/next',
      redirect: false,
      fetch: server.fetch,
    });
    expect(result).toEqual({ ok: true, status: 200, url: '/next' });
    expect(server.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /auth/csrf',
      'POST /auth/callback/credentials',
    ]);
    const post = server.calls[1]!;
    expect(post.headers).toMatchObject({ accept: 'application/json', 'content-type': 'application/json' });
    expect(post.credentials).toBe('same-origin');
    expect(post.body).toEqual({
      email: 'ada@example.com',
      password: 'right-password',
      csrfToken: 'tok',
      callbackUrl: '/next',
    });
  });

  it('navigates by default, to the URL the server answers with; the current page is the default callback', async () => {
    const assign = page();
    const server = fakeServer();
    const result = await signIn('credentials', { email: 'a@b.c', password: 'right-password', fetch: server.fetch });
    expect(server.calls[1]!.body?.callbackUrl).toBe('http://app.test/dashboard');
    expect(assign).toHaveBeenCalledWith('http://app.test/dashboard');
    expect(result.ok).toBe(true);
  });

  it('redirectTo wins over callbackUrl', async () => {
    const server = fakeServer();
    await signIn('credentials', {
      password: 'right-password',
      callbackUrl: '/a',
      redirectTo: '/b',
      redirect: false,
      fetch: server.fetch,
    });
    expect(server.calls[1]!.body?.callbackUrl).toBe('/b');
  });

  it('resolves the error code on failure and does not navigate, even with redirect on', async () => {
    const assign = page();
    const server = fakeServer();
    const result = await signIn('credentials', { email: 'a@b.c', password: 'wrong', fetch: server.fetch });
    expect(result).toEqual({ ok: false, status: 401, error: 'INVALID_CREDENTIALS' });
    expect(assign).not.toHaveBeenCalled();
  });

  it('resolves FETCH_ERROR when the network fails', async () => {
    const failing: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    expect(await signIn('credentials', { redirect: false, fetch: failing })).toEqual({
      ok: false,
      status: 0,
      error: 'FETCH_ERROR',
    });
  });

  it('posts other providers to /signin/:id with the email, and navigates to the answer', async () => {
    const assign = page();
    const server = fakeServer();
    await signIn('email', { email: 'ada@example.com', fetch: server.fetch });
    await signIn('git hub', { fetch: server.fetch, navigationOrigins: ['https://provider.example'] });
    expect(server.calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([
      '/auth/signin/email',
      '/auth/signin/git%20hub',
    ]);
    expect(server.calls[1]!.body).toEqual({
      email: 'ada@example.com',
      csrfToken: 'tok',
      callbackUrl: 'http://app.test/dashboard',
    });
    expect(assign).toHaveBeenLastCalledWith('https://provider.example/authorize');
  });

  it('refuses to navigate off-site or to a non-http URL the answer carries: the page goes to / instead', async () => {
    const hostile = [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      '//evil.example/x',
      '/\\evil.example/x',
      'https://evil.example/x',
      'data:text/html,x',
      'http://app.test.evil.example/',
      'https://provider.example/authorize',
    ];
    for (const url of hostile) {
      const assign = page();
      const answer: typeof fetch = async (input) =>
        String(input).endsWith('/csrf') ? Response.json({ csrfToken: 'tok' }) : Response.json({ ok: true, url });
      await signIn('credentials', { fetch: answer });
      expect(assign, url).toHaveBeenCalledWith('/');
      const out = page();
      await signOut({ fetch: answer });
      expect(out, url).toHaveBeenCalledWith('/');
    }
    for (const [url, expected] of [
      ['/next?x=1', 'http://app.test/next?x=1'],
      ['https://api.example.com/done', 'https://api.example.com/done'],
    ]) {
      const assign = page();
      const answer: typeof fetch = async (input) =>
        String(input).endsWith('/csrf') ? Response.json({ csrfToken: 'tok' }) : Response.json({ ok: true, url });
      await signIn('credentials', { fetch: answer, baseUrl: 'https://api.example.com' });
      expect(assign).toHaveBeenCalledWith(expected);
    }
  });

  it('sends only plain values, never its own options', async () => {
    const server = fakeServer();
    await signIn('credentials', {
      password: 'right-password',
      remember: true,
      tries: 2,
      nested: { a: 1 },
      basePath: '/auth',
      redirect: false,
      fetch: server.fetch,
    });
    expect(server.calls[1]!.body).toEqual({ password: 'right-password', remember: true, tries: 2, csrfToken: 'tok' });
  });

  it('uses baseUrl and basePath, with credentials included for another origin', async () => {
    const server = fakeServer();
    await signIn('credentials', {
      baseUrl: 'https://api.example.com/',
      basePath: '/api/auth/',
      password: 'right-password',
      redirect: false,
      fetch: server.fetch,
    });
    expect(server.calls.map((c) => c.url)).toEqual([
      'https://api.example.com/api/auth/csrf',
      'https://api.example.com/api/auth/callback/credentials',
    ]);
    expect(server.calls.every((c) => c.credentials === 'include')).toBe(true);
  });
});

describe('signOut', () => {
  it('posts the CSRF token to /signout and, with redirect false, returns the session data after it', async () => {
    const server = fakeServer();
    server.session = ADA;
    const result = await signOut({ redirect: false, redirectTo: '/bye', fetch: server.fetch });
    expect(result).toEqual({ ok: true, status: 200, url: '/bye', session: null });
    expect(server.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /auth/csrf',
      'POST /auth/signout',
      'GET /auth/session',
    ]);
    expect(server.calls[1]!.body).toEqual({ csrfToken: 'tok', callbackUrl: '/bye' });
  });

  it('navigates by default', async () => {
    const assign = page('http://app.test/here');
    const server = fakeServer();
    await signOut({ fetch: server.fetch });
    expect(assign).toHaveBeenCalledWith('http://app.test/here');
  });

  it('reports a refused sign-out with the session still there', async () => {
    const server = fakeServer();
    server.session = ADA;
    const refusing: typeof fetch = async (url, init) =>
      init?.method === 'POST'
        ? Response.json({ error: { code: 'CSRF_ORIGIN_MISMATCH', message: 'x' } }, { status: 403 })
        : server.fetch(url, init);
    const result = await signOut({ redirect: false, fetch: refusing });
    expect(result).toEqual({ ok: false, status: 403, error: 'CSRF_ORIGIN_MISMATCH', session: ADA });
  });
});

describe('getSession', () => {
  it('returns the session, or null when signed out or when the answer has no user', async () => {
    const server = fakeServer();
    expect(await getSession({ fetch: server.fetch })).toBeNull();
    server.session = ADA;
    expect(await getSession({ fetch: server.fetch })).toEqual(ADA);
    server.session = { user: null, expires: ADA.expires };
    expect(await getSession({ fetch: server.fetch })).toBeNull();
    server.session = { user: { name: 'no id' }, expires: ADA.expires };
    expect(await getSession({ fetch: server.fetch })).toBeNull();
    expect(server.calls[0]).toMatchObject({
      method: 'GET',
      url: '/auth/session',
      headers: { accept: 'application/json' },
    });
  });

  it('rejects when the server fails', async () => {
    const server = fakeServer();
    server.sessionStatus = 500;
    await expect(getSession({ fetch: server.fetch })).rejects.toThrow('status 500');
  });
});
