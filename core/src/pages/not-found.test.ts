import { describe, expect, it } from 'vitest';
import { makeFixture, ORIGIN } from '../testing/fixtures.js';

describe('an unknown auth URL', async () => {
  const { auth } = await makeFixture('database');

  it('shows a browser a "Page not found" page with a link home, not a sign-in error', async () => {
    for (const path of ['/auth/nope', '/auth/two-factor/nothing-here', '/auth/signin/a/b']) {
      const res = await auth.handler(new Request(`${ORIGIN}${path}`, { headers: { accept: 'text/html' } }));
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html, path).toContain('<h1>Page not found</h1>');
      expect(html, path).toContain('<a href="/">Go to the home page</a>');
      expect(html, path).not.toContain('Sign-in problem');
    }
  });

  it('still answers a JSON client 404 NOT_FOUND', async () => {
    const res = await auth.handler(new Request(`${ORIGIN}/auth/nope`, { headers: { accept: 'application/json' } }));
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  it('keeps other errors on the sign-in problem page', async () => {
    const res = await auth.handler(
      new Request(`${ORIGIN}/auth/error?error=AccessDenied`, { headers: { accept: 'text/html' } }),
    );
    const html = await res.text();
    expect(html).toContain('Sign-in problem');
    expect(html).not.toContain('Page not found');
  });
});
