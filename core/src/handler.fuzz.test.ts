import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { makeFixture, ORIGIN } from './testing/fixtures.js';

const segment = fc.oneof(
  fc.constantFrom(
    'providers',
    'csrf',
    'session',
    'signin',
    'signout',
    'callback',
    'error',
    'verify-request',
    'credentials',
    '%2e%2e',
    '..',
    '%ff',
    '',
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);
const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD');
const contentType = fc.constantFrom(
  'application/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'text/plain',
  '',
  'application/json; charset=utf-8',
);
const body = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.json(),
  fc.constant('{"email":"a@b.c","password":"x","csrfToken":"y"}'),
);
const cookie = fc.oneof(
  fc.constant(''),
  fc.string({ maxLength: 80 }).map((s) => `framework.session-token=${encodeURIComponent(s)}`),
  fc.string({ maxLength: 80 }),
  fc.constant('framework.session-token=a.b; framework.csrf-token=x.y'),
);

describe.each(['database', 'jwt'] as const)('fuzz (%s): no input under /auth yields a 5xx', (strategy) => {
  it('random method / path / headers / body / cookie', async () => {
    const { auth } = await makeFixture(strategy);
    await fc.assert(
      fc.asyncProperty(
        method,
        fc.array(segment, { maxLength: 3 }),
        contentType,
        body,
        cookie,
        fc.boolean(),
        async (m, segs, type, b, c, json) => {
          const headers: Record<string, string> = {};
          if (type) headers['content-type'] = type;
          if (c) headers.cookie = c;
          if (json) headers.accept = 'application/json';
          const hasBody = m !== 'GET' && m !== 'HEAD';
          const res = await auth.handler(
            new Request(`${ORIGIN}/auth/${segs.join('/')}`, { method: m, headers, ...(hasBody ? { body: b } : {}) }),
          );
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe.each(['database', 'jwt'] as const)(
  'fuzz (%s): CSRF-valid POSTs with random fields never yield a 5xx',
  (strategy) => {
    it('random fields to every POST route', async () => {
      const { client } = await makeFixture(strategy);
      const c = client();
      const token = await c.csrf();
      const fields = fc.dictionary(
        fc.constantFrom('email', 'password', 'callbackUrl', 'everywhere', 'data', 'x'),
        fc.string({ maxLength: 40 }),
      );
      const route = fc.constantFrom(
        '/auth/callback/credentials',
        '/auth/signin/credentials',
        '/auth/signout',
        '/auth/session',
        '/auth/callback/nope',
      );
      await fc.assert(
        fc.asyncProperty(route, fields, fc.boolean(), async (path, f, asJson) => {
          const res = await c.request(path, {
            method: 'POST',
            headers: asJson
              ? { 'content-type': 'application/json', accept: 'application/json' }
              : { 'content-type': 'application/x-www-form-urlencoded' },
            body: asJson
              ? JSON.stringify({ ...f, csrfToken: token })
              : new URLSearchParams({ ...f, csrfToken: token }).toString(),
          });
          expect(res.status).toBeLessThan(500);
        }),
        { numRuns: 150 },
      );
    });
  },
);
