/**
 * The ID token's `amr` and `acr` reflect how the person signed in: `['pwd']` after a password, `['otp', 'mfa']` and
 * the multi-factor `acr` after `twoFactor()`'s second step (in-process, through `auth.handler`).
 */
import { createHash } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import { ORIGIN, PASSWORD, makeFixture, type TestClient } from '../../testing/fixtures.js';
import { jwt } from '../jwt/index.js';
import { createMemoryTwoFactorStorage, twoFactor } from '../two-factor/index.js';
import { ACR_MFA, oidcProvider } from './index.js';
import { movableClock } from './provider-harness.test-helpers.js';

const SECRET = 'rp-secret-rp-secret-rp-secret-0123456789';
const REDIRECT = 'https://rp.example/callback';
const VERIFIER = 'x'.repeat(43);
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

async function setup() {
  const clock = movableClock();
  const f = await makeFixture('database', {
    baseURL: ORIGIN,
    clock,
    rateLimit: { login: false },
    plugins: [
      twoFactor({ storage: createMemoryTwoFactorStorage(), issuer: 'Acme' }),
      jwt({ audience: 'https://api.example' }),
      oidcProvider({
        clients: [{ clientId: 'rp', clientSecret: SECRET, name: 'RP', redirectUris: [REDIRECT], skipConsent: true }],
      }),
    ],
  });
  await f.adapter.updateUser(f.userId, { emailVerified: new Date(clock.now()) });
  return { ...f, clock };
}

/** Authorizes `rp` in the signed-in client `c` and answers the verified ID token's claims. */
async function idTokenClaims(f: Awaited<ReturnType<typeof setup>>, c: TestClient) {
  const query = new URLSearchParams({
    client_id: 'rp',
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'openid',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
  });
  const res = await c.request(`/auth/oauth2/authorize?${query.toString()}`);
  const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
  const tokens = await f.auth.handler(
    new Request(`${ORIGIN}/auth/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${btoa(`rp:${SECRET}`)}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        code_verifier: VERIFIER,
      }),
    }),
  );
  const { id_token } = (await tokens.json()) as { id_token: string };
  const jwks = (await (await f.auth.handler(new Request(`${ORIGIN}/auth/jwks`))).json()) as JSONWebKeySet;
  const { payload } = await jwtVerify(id_token, createLocalJWKSet(jwks), {
    issuer: `${ORIGIN}/auth`,
    audience: 'rp',
    currentDate: new Date(f.clock.now()),
  });
  return payload;
}

describe('oidcProvider amr / acr', () => {
  it('says pwd after a password sign-in, and otp + mfa with the multi-factor acr after a second factor', async () => {
    const f = await setup();
    const c = f.client();
    await c.signIn();
    const password = await idTokenClaims(f, c);
    expect(password.amr).toStrictEqual(['pwd']);
    expect(password.acr).toBeUndefined();

    const enable = await c.postJson('/auth/two-factor/enable', { password: PASSWORD });
    const totp = OTPAuth.URI.parse(((await enable.json()) as { totpURI: string }).totpURI) as OTPAuth.TOTP;
    const confirmed = await c.postJson('/auth/two-factor/confirm', {
      code: totp.generate({ timestamp: f.clock.now() }),
    });
    expect(confirmed.status).toBe(200);

    const d = f.client();
    expect((await d.signIn()).status).toBe(401);
    f.clock.advance(30_000);
    const verified = await d.postJson('/auth/two-factor/verify', { code: totp.generate({ timestamp: f.clock.now() }) });
    expect(verified.status).toBe(200);
    const mfa = await idTokenClaims(f, d);
    expect(mfa.amr).toStrictEqual(['otp', 'mfa']);
    expect(mfa.acr).toBe(ACR_MFA);
  });
});
