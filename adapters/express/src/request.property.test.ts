/**
 * Property test of the Express adapter's URL building: for any `Host` value
 * and request target, `requestUrl` either refuses with the 400
 * `INVALID_REQUEST` or builds a URL on exactly that host, with no userinfo, whatever
 * the target holds (`//evil.example`, `/\\evil.example`).
 */
import fc from 'fast-check';
import type { Request as ExpressRequest } from 'express';
import { describe, expect, it } from 'vitest';
import { AuthError } from '@framework/auth';
import { requestUrl } from './request.js';

const pieces = fc.constantFrom(
  'a',
  'example.com',
  '[',
  ']',
  '::1',
  ':',
  '80',
  '99999',
  '@',
  '/',
  '\\',
  '?',
  '#',
  ' ',
  '%',
  '%2f',
  '.',
  '..',
  'user',
  'evil.example',
  'http://',
  'xn--',
  '-',
  '_',
);
const host = fc.oneof(
  fc.array(pieces, { maxLength: 6 }).map((p) => p.join('')),
  fc.string({ maxLength: 20 }),
);
const target = fc.oneof(
  fc.constantFrom(
    '/auth/session',
    '/',
    '//evil.example/x',
    '/a?b=c',
    'http://evil.example/auth/x',
    '*',
    'https://x/y',
    '/%2e%2e/x',
    '',
  ),
  fc.array(pieces, { maxLength: 6 }).map((p) => p.join('')),
);

function fakeRequest(hostValue: string, url: string): ExpressRequest {
  return { protocol: 'http', headers: { host: hostValue }, originalUrl: url, url } as unknown as ExpressRequest;
}

describe('requestUrl', () => {
  it('refuses with INVALID_REQUEST or keeps exactly the given host', () => {
    fc.assert(
      fc.property(host, target, (hostValue, url) => {
        let built: string;
        try {
          built = requestUrl(fakeRequest(hostValue, url));
        } catch (e) {
          expect(e).toBeInstanceOf(AuthError);
          expect(e).toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
          return;
        }
        const parsed = new URL(built);
        expect(url.startsWith('/')).toBe(true);
        expect(parsed.username).toBe('');
        expect(parsed.password).toBe('');
        expect(parsed.host).toBe(new URL(`http://${hostValue}`).host);
        expect(built.startsWith(`http://${parsed.host}/`)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('builds origin-form requests and refuses the rest', () => {
    expect(requestUrl(fakeRequest('example.com:8080', '/auth/session?x=1'))).toBe(
      'http://example.com:8080/auth/session?x=1',
    );
    expect(requestUrl(fakeRequest('[::1]:3000', '/'))).toBe('http://[::1]:3000/');
    for (const [h, u] of [
      ['[', '/'],
      ['a b', '/'],
      ['example.com:99999', '/'],
      ['user@evil.example', '/'],
      ['evil.example/x', '/'],
      ['ok.example', 'http://evil.example/'],
      ['ok.example', '*'],
    ]) {
      expect(() => requestUrl(fakeRequest(h!, u!)), `${h} ${u}`).toThrow(AuthError);
    }
  });
});
