/**
 * `@framework/auth-client/plugins/one-tap` against the real engine with `oneTap()` and a LOCAL JWKS (jose keys
 * served on 127.0.0.1, port 0): a nonce, a sign-in that creates the account, and a replayed token refused.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneTap } from '@framework/auth/plugins/one-tap';
import { getOneTapNonce, signIn } from '../src/plugins/one-tap.js';
import { engine } from './engine-fetch.js';

const SECRET = 'client-one-tap-test-secret-0123456789abcdef';
const CLIENT_ID = 'client-1.apps.googleusercontent.com';
let server: Server;
let jwksUrl: string;
let key: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  key = pair.privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k', alg: 'RS256' };
  server = createServer((_req, res) => res.end(JSON.stringify({ keys: [jwk] })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/certs`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const token = (claims: JWTPayload) => {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: 'accounts.google.com',
    aud: CLIENT_ID,
    sub: 'g-1',
    iat: now,
    exp: now + 600,
    email: 'grace@example.com',
    email_verified: true,
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: 'k' })
    .sign(key);
};

describe('one-tap client functions', () => {
  it('signs in with the credential Google gave the page, with the nonce the server issued', async () => {
    const { browser, adapter } = await engine({
      secret: SECRET,
      plugins: [oneTap({ clientId: CLIENT_ID, jwksUrl })],
      rateLimit: { login: false },
    });
    const grace = browser();
    const g = { fetch: grace.fetch };
    const nonce = await getOneTapNonce(g);
    expect(nonce.ok).toBe(true);
    const credential = await token({ nonce: nonce.data!.nonce });
    expect(await signIn.oneTap({ credential, callbackUrl: '/home' }, g)).toMatchObject({
      ok: true,
      data: { url: '/home' },
    });
    expect((await grace.client.getSession())?.user.email).toBe('grace@example.com');
    expect(await adapter.getUserByAccount({ provider: 'google', providerAccountId: 'g-1' })).not.toBeNull();

    const other = browser();
    expect(await signIn.oneTap({ credential }, { fetch: other.fetch })).toMatchObject({
      ok: false,
      status: 401,
      error: 'ONE_TAP_NONCE_INVALID',
    });
  });
});
