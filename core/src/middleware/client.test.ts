import { describe, expect, it } from 'vitest';
import { isApiRequest } from './client.js';

const request = (headers: Record<string, string>) => new Request('http://localhost/x', { headers });

describe('isApiRequest', () => {
  it.each([
    [{ 'sec-fetch-mode': 'navigate', accept: 'application/json' }, false],
    [{ 'sec-fetch-mode': 'NAVIGATE' }, false],
    [{ 'sec-fetch-mode': 'cors', accept: 'text/html' }, true],
    [{ 'sec-fetch-mode': 'same-origin' }, true],
    [{ accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }, false],
    [{ accept: 'application/json, text/html' }, false],
    [{ accept: 'application/json' }, true],
    [{ accept: 'Application/JSON' }, true],
    [{ accept: 'application/vnd.api+json' }, true],
    [{ accept: 'application/jsonx' }, true],
    [{ 'content-type': 'application/json; charset=utf-8' }, true],
    [{ 'x-requested-with': 'XMLHttpRequest' }, true],
    [{ authorization: 'Bearer abc' }, true],
    // No HTML in Accept: curl, server-side fetch and scripts get JSON, not a redirect to a page.
    [{ accept: '*/*' }, true],
    [{}, true],
    [{ accept: 'TEXT/HTML' }, false],
  ])('%j → %s', (headers, expected) => {
    expect(isApiRequest(request(headers))).toBe(expected);
  });
});
