import { describe, expect, it } from 'vitest';
import { pathnameOfHref } from './request.js';

describe('pathnameOfHref', () => {
  it('is the pathname that new URL reads from a serialized URL', () => {
    for (const target of [
      '/',
      '/api/auth',
      '/api/auth/',
      '/api/authx?x=1',
      '/api/auth/../secret?a=/b#c',
      '/a%2Fb/c?q=%3F#/frag',
      '/%61pi/auth',
      '/x#y?z',
      '//double/slash',
      '/a?b#c/d',
    ]) {
      for (const origin of ['http://127.0.0.1:3000', 'https://example.com', 'http://[::1]:8080']) {
        const href = new URL(`${origin}${target}`).href;
        expect(pathnameOfHref(href), href).toBe(new URL(href).pathname);
      }
    }
  });
});
