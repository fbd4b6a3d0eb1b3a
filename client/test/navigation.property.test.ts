/**
 * Property test of the navigation check behind `signIn` / `signOut`: for any
 * string a server could answer with, the page goes either to `/` or to an
 * http(s) URL on an allowed origin.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeNavigationUrl } from '../src/http.js';

const HERE = 'https://app.example/dashboard?tab=1';
const API = 'https://api.example';

/** Strings built from the pieces redirect attacks use. */
const hostile = fc
  .array(
    fc.constantFrom(
      '/',
      '//',
      '\\',
      '/\\',
      '\t',
      '\n',
      ' ',
      'javascript:',
      'JaVaScRiPt:',
      'data:',
      'vbscript:',
      'http:',
      'https:',
      '@',
      'evil.example',
      'app.example',
      '%2f',
      '%5c',
      '..',
      '.',
      ':',
      '?',
      '#',
      'x',
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(''));

describe('safeNavigationUrl', () => {
  it('yields / or an http(s) URL on the page, baseUrl or listed origin, for any answer', () => {
    const allowed = new Set(['https://app.example', API, 'https://idp.example']);
    fc.assert(
      fc.property(fc.oneof(hostile, fc.string(), fc.webUrl()), (url) => {
        const target = safeNavigationUrl(
          url,
          { baseUrl: API, navigationOrigins: ['https://idp.example/authorize'] },
          HERE,
        );
        if (target === '/') return;
        const parsed = new URL(target);
        expect(['http:', 'https:']).toContain(parsed.protocol);
        expect(allowed.has(parsed.origin)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps same-origin paths and refuses the known tricks', () => {
    expect(safeNavigationUrl('/next?x=1#h', {}, HERE)).toBe('https://app.example/next?x=1#h');
    for (const url of [
      'javascript:alert(1)',
      ' javascript:alert(1)',
      '//evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      'https://app.example@evil.example/',
      'http:evil.example',
      'data:text/html,x',
    ]) {
      expect(safeNavigationUrl(url, {}, HERE), url).toBe('/');
    }
  });
});
