/**
 * CORS for browser clients: the origins of public clients' redirect URIs, exactly, on token, UserInfo, revocation,
 * discovery and JWKS; preflights answered without side effects; never on authorize or consent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_REDIRECT, RP_REDIRECT, startProvider } from './provider-harness.test-helpers.js';

let op: Awaited<ReturnType<typeof startProvider>>;
beforeAll(async () => {
  op = await startProvider();
});
afterAll(() => op.close());

/** The public client `cli`'s origin (its redirect URI is on the loopback). */
const ALLOWED = new URL(PUBLIC_REDIRECT).origin;
/** The confidential client's origin, and one nobody registered. */
const REFUSED = [new URL(RP_REDIRECT).origin, 'https://evil.example', `${ALLOWED}.evil.example`, 'null'];

const call = (path: string, init: RequestInit & { origin: string }) => {
  const headers = new Headers(init.headers);
  headers.set('origin', init.origin);
  return op.auth.handler(new Request(`${op.issuer}${path}`, { ...init, headers }));
};
const preflight = (path: string, origin: string, method = 'POST') =>
  call(path, {
    method: 'OPTIONS',
    origin,
    headers: { 'access-control-request-method': method, 'access-control-request-headers': 'authorization' },
  });
const form = (body: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(body).toString(),
});

describe('oidcProvider: CORS for browser clients', () => {
  it('answers a preflight from a public client’s origin, without cookies or credentials', async () => {
    for (const [path, methods] of [
      ['/oauth2/token', 'POST'],
      ['/oauth2/userinfo', 'GET, POST'],
      ['/oauth2/revoke', 'POST'],
      ['/.well-known/openid-configuration', 'GET'],
    ] as const) {
      const res = await preflight(path, ALLOWED);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('access-control-allow-origin'), path).toBe(ALLOWED);
      expect(res.headers.get('access-control-allow-methods'), path).toBe(methods);
      expect(res.headers.get('access-control-allow-headers'), path).toContain('authorization');
      expect(res.headers.get('access-control-allow-credentials'), path).toBeNull();
      expect(res.headers.get('vary'), path).toContain('Origin');
      expect(res.headers.getSetCookie(), path).toStrictEqual([]);
      expect(await res.text(), path).toBe('');
    }
  });

  it('answers a preflight from any other origin with no CORS headers', async () => {
    for (const origin of REFUSED) {
      const res = await preflight('/oauth2/token', origin);
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin'), origin).toBeNull();
      expect(res.headers.get('access-control-allow-methods'), origin).toBeNull();
      expect(res.headers.get('vary')).toContain('Origin');
    }
  });

  it('adds the exact origin to real answers (errors too) for a public client’s origin, and nothing for others', async () => {
    const requests: [string, RequestInit][] = [
      ['/oauth2/token', form({ grant_type: 'authorization_code', client_id: 'cli', code: 'nope' })],
      ['/oauth2/userinfo', { method: 'GET', headers: { authorization: 'Bearer nope' } }],
      ['/oauth2/revoke', form({ client_id: 'cli', token: 'nope' })],
      ['/.well-known/openid-configuration', { method: 'GET' }],
      ['/jwks', { method: 'GET' }],
    ];
    for (const [path, init] of requests) {
      const ok = await call(path, { ...init, origin: ALLOWED });
      expect(ok.headers.get('access-control-allow-origin'), path).toBe(ALLOWED);
      expect(ok.headers.get('access-control-allow-credentials'), path).toBeNull();
      expect(ok.headers.get('vary'), path).toContain('Origin');
      for (const origin of REFUSED) {
        const no = await call(path, { ...init, origin });
        expect(no.status, path).toBe(ok.status);
        expect(no.headers.get('access-control-allow-origin'), `${path} ${origin}`).toBeNull();
        expect(no.headers.get('vary'), path).toContain('Origin');
      }
    }
  });

  it('never answers CORS on authorize, consent or introspection', async () => {
    const authorize = await call(
      `/oauth2/authorize?client_id=cli&redirect_uri=${encodeURIComponent(PUBLIC_REDIRECT)}`,
      {
        method: 'GET',
        origin: ALLOWED,
      },
    );
    expect(authorize.headers.get('access-control-allow-origin')).toBeNull();
    for (const path of ['/oauth2/authorize', '/oauth2/consent', '/oauth2/introspect']) {
      const res = await preflight(path, ALLOWED);
      expect(res.status, path).toBe(405);
      expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
    }
    const introspect = await call('/oauth2/introspect', { ...form({ token: 'nope' }), origin: ALLOWED });
    expect(introspect.headers.get('access-control-allow-origin')).toBeNull();
  });
});
