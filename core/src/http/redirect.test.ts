import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeRedirect } from './redirect.js';

const BASE = 'https://app.example.com';
const TRUSTED = ['https://admin.example.com'];
const ALLOWED = new Set([BASE, ...TRUSTED]);

/** Where a browser goes for a `Location: value` answered by BASE (WHATWG URL parsing, as browsers do). */
function browserTarget(value: string): string {
  return new URL(value, `${BASE}/auth/callback/x`).origin;
}

describe('safeRedirect', () => {
  it.each([
    ['/dashboard?tab=1#top', '/dashboard?tab=1#top'],
    ['https://app.example.com/a', 'https://app.example.com/a'],
    ['https://admin.example.com/users', 'https://admin.example.com/users'],
    ['/a/../b', '/b'],
  ])('keeps %s', (input, expected) => {
    expect(safeRedirect(input, BASE, TRUSTED)).toBe(expected);
  });

  it.each([
    '//evil.example/x',
    '/.//evil.example/x',
    '/..//evil.example/x',
    '/a/..//evil.example',
    '/%2e%2e//evil.example',
    '/././/evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '\t//evil.example',
    '/\n/evil.example',
    'https://evil.example',
    'https://app.example.com@evil.example/',
    'https://app.example.com.evil.example/',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,hi',
    'http:evil.example',
    'http://app.example.com/', // wrong scheme: another origin
  ])('refuses %j', (input) => {
    expect(safeRedirect(input, BASE, TRUSTED)).toBeNull();
  });

  const fragment = fc.constantFrom(
    '/',
    '//',
    '\\',
    '.',
    '..',
    '/./',
    '/../',
    '%2e',
    '%2E%2e',
    '%2f',
    '%2F',
    '%5c',
    '%09',
    '%0a',
    '\t',
    '\n',
    '\r',
    ' ',
    '@',
    ':',
    '?',
    '#',
    '&',
    'evil.example',
    'app.example.com',
    'admin.example.com',
    'javascript:',
    'http:',
    'https:',
    'HTTPS://',
    'http://',
    'https://',
    'a',
    'b/c',
    'x=1',
    '\u0000',
    '\u3002',
    'ｅvil.example',
    '%40',
    '%3a',
  );
  const candidate = fc.array(fragment, { minLength: 1, maxLength: 12 }).map((parts) => parts.join(''));

  it('property: whatever comes in, a browser following the answer lands on an allowed origin', () => {
    fc.assert(
      fc.property(candidate, (input) => {
        const out = safeRedirect(input, BASE, TRUSTED);
        if (out === null) return;
        expect(ALLOWED.has(browserTarget(out)), `${JSON.stringify(input)} → ${JSON.stringify(out)}`).toBe(true);
        expect(out.startsWith('//')).toBe(false);
      }),
      { numRuns: 20_000 },
    );
  });

  it('property: same-origin paths survive (nothing legitimate is thrown away)', () => {
    const segment = fc.stringMatching(/^[a-z0-9_-]{1,8}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
        const path = `/${segments.join('/')}`;
        expect(safeRedirect(path, BASE, TRUSTED)).toBe(path);
      }),
    );
  });
});
