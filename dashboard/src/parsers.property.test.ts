/** Property tests of the dashboard's input handling: the audit filter from a query string and the CSRF token check. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditFilterOf } from './auth-activity.js';
import { createCsrfGuard } from './csrf.js';

describe('auditFilterOf', () => {
  it('always yields a limit from 1 to 200 and short text filters, whatever the query', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('limit', 'action', 'actor', 'outcome', 'other'), fc.string({ maxLength: 300 })),
        (query) => {
          const filter = auditFilterOf(new URLSearchParams(query));
          expect(Number.isInteger(filter.limit) && filter.limit >= 1 && filter.limit <= 200).toBe(true);
          for (const value of [filter.action, filter.actor])
            if (value !== undefined) expect(value.length).toBeLessThanOrEqual(100);
          expect([undefined, 'success', 'failure']).toContain(filter.outcome);
          expect(Object.keys(filter).every((k) => ['limit', 'action', 'actor', 'outcome'].includes(k))).toBe(true);
        },
      ),
    );
  });
});

describe('CSRF guard', async () => {
  const guard = await createCsrfGuard({ secret: 'k'.repeat(32), cookiePath: '/_framework', secure: false });
  const other = await createCsrfGuard({ secret: 'o'.repeat(32), cookiePath: '/_framework', secure: false });
  const post = (cookie: string) =>
    new Request('http://localhost/_framework/x', {
      method: 'POST',
      headers: { origin: 'http://localhost', cookie: `${guard.cookieName}=${cookie}` },
    });

  it('accepts its own issued token and refuses any other submitted string', async () => {
    const { token } = await guard.issue(new Request('http://localhost/_framework/'));
    expect(await guard.check(post(token), token)).toBeNull();
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 120 }), async (submitted) => {
        fc.pre(submitted !== token);
        expect(await guard.check(post(token), submitted)).toBe('CSRF_TOKEN_INVALID');
        // A cookie and form that agree but were not signed with this key are refused too.
        expect(await guard.check(post(submitted), submitted)).toBe('CSRF_TOKEN_INVALID');
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a token signed under another key, and a cross-origin post', async () => {
    const { token } = await other.issue(new Request('http://localhost/_framework/'));
    expect(await guard.check(post(token), token)).toBe('CSRF_TOKEN_INVALID');
    const own = (await guard.issue(new Request('http://localhost/_framework/'))).token;
    const crossSite = new Request('http://localhost/_framework/x', {
      method: 'POST',
      headers: { origin: 'http://evil.example', cookie: `${guard.cookieName}=${own}` },
    });
    expect(await guard.check(crossSite, own)).toBe('CSRF_ORIGIN_MISMATCH');
    const noOrigin = new Request('http://localhost/_framework/x', {
      method: 'POST',
      headers: { cookie: `${guard.cookieName}=${own}` },
    });
    expect(await guard.check(noOrigin, own)).toBe('CSRF_ORIGIN_MISMATCH');
  });
});
