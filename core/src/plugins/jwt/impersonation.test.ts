/**
 * `GET /token` during an impersonation (`admin()`), under both session strategies: the access token names the
 * impersonated user in `sub` and the admin in `act.sub` (RFC 8693 §4.1), checked with plain jose against the
 * published JWKS and through `verifyAccessToken`. Neither the `claims` option nor the app's `session` callback can
 * forge or drop the actor.
 */
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT, type JSONWebKeySet } from 'jose';
import { describe, expect, it } from 'vitest';
import type { CreateAuthOptions } from '../../auth.js';
import { passwordAccounts } from '../../password-accounts.js';
import { makeFixture, ORIGIN, type TestClient } from '../../testing/fixtures.js';
import { admin } from '../admin/plugin.js';
import { createMemoryAdminStorage } from '../admin/storage/memory.js';
import { createMemoryJwksStorage, jwt, verifyAccessToken, type JwtPluginOptions } from './index.js';

const AUDIENCE = 'https://api.example.com';
const json = { accept: 'application/json' };

async function setup(
  strategy: 'database' | 'jwt',
  options: Partial<JwtPluginOptions> = {},
  overrides: Partial<CreateAuthOptions> = {},
) {
  const f = await makeFixture(strategy, {
    baseURL: ORIGIN,
    plugins: [
      admin({ storage: createMemoryAdminStorage() }),
      jwt({ storage: createMemoryJwksStorage(), audience: AUDIENCE, ...options }),
    ],
    ...overrides,
  });
  const root = await passwordAccounts(f.adapter).register({ email: 'root@example.com', password: 'root-password-1' });
  await f.adapter.updateUser(root.id, { role: 'admin' });
  const c = f.client();
  c.ip = '203.0.113.5';
  expect((await c.signIn('root@example.com', 'root-password-1')).status).toBe(200);
  return { ...f, adminId: root.id, c };
}

const tokenOf = async (c: TestClient) => {
  const res = await c.request('/auth/token', { headers: json });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
};
const jwksOf = async (c: TestClient) =>
  (await (await c.request('/auth/jwks', { headers: json })).json()) as JSONWebKeySet;

describe.each(['database', 'jwt'] as const)('GET /token during an impersonation (%s sessions)', (strategy) => {
  it('carries act.sub = the admin (RFC 8693 §4.1), verified with plain jose and exposed by verifyAccessToken', async () => {
    const f = await setup(strategy);
    const own = await tokenOf(f.c);
    expect((await f.c.postJson('/auth/admin/impersonate', { userId: f.userId })).status).toBe(200);
    const acting = await tokenOf(f.c);
    const keys = createLocalJWKSet(await jwksOf(f.c));
    const { payload } = await jwtVerify(acting, keys, { issuer: ORIGIN, audience: AUDIENCE, typ: 'at+jwt' });
    expect(payload.sub).toBe(f.userId);
    expect(payload.act).toEqual({ sub: f.adminId });
    const claims = await verifyAccessToken(acting, { jwks: await jwksOf(f.c), issuer: ORIGIN, audience: AUDIENCE });
    expect(claims.act?.sub).toBe(f.adminId);
    // The admin's own token, and the token after stopping, carry no actor.
    expect((await jwtVerify(own, keys)).payload).not.toHaveProperty('act');
    expect((await f.c.postJson('/auth/admin/stop-impersonating', {})).status).toBe(200);
    expect((await jwtVerify(await tokenOf(f.c), keys)).payload).not.toHaveProperty('act');
  });

  it('the claims option cannot forge or drop act, nor can a session callback that hides the impersonation', async () => {
    const f = await setup(
      strategy,
      { claims: () => ({ act: { sub: 'someone-else' }, role: 'x' }) },
      // An app's session callback that shows no impersonation marker.
      { callbacks: { session: ({ session }) => ({ user: session.user, expires: session.expires }) } },
    );
    const own = await tokenOf(f.c); // the first token creates the signing key
    const keys = createLocalJWKSet(await jwksOf(f.c));
    expect((await jwtVerify(own, keys)).payload).not.toHaveProperty('act');
    await f.c.postJson('/auth/admin/impersonate', { userId: f.userId });
    const { payload } = await jwtVerify(await tokenOf(f.c), keys);
    expect(payload).toMatchObject({ sub: f.userId, act: { sub: f.adminId }, role: 'x' });
  });
});

describe('verifyAccessToken and act', () => {
  it('refuses a token whose act is not an object with a string sub', async () => {
    const { publicKey, privateKey } = await generateKeyPair('EdDSA');
    const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'EdDSA', use: 'sig' }] };
    const ok = { jwks, issuer: ORIGIN, audience: AUDIENCE };
    const now = Math.floor(Date.now() / 1000);
    const make = (extra: Record<string, unknown>) =>
      new SignJWT({ sub: 'u1', iss: ORIGIN, aud: AUDIENCE, iat: now, exp: now + 60, ...extra })
        .setProtectedHeader({ alg: 'EdDSA', kid: 'k1', typ: 'at+jwt' })
        .sign(privateKey);
    await expect(verifyAccessToken(await make({ act: { sub: 'a1' } }), ok)).resolves.toMatchObject({
      act: { sub: 'a1' },
    });
    for (const act of ['a1', null, {}, { sub: 7 }, ['a1']])
      await expect(verifyAccessToken(await make({ act }), ok), JSON.stringify(act)).rejects.toHaveProperty(
        'code',
        'ERR_JWT_CLAIM_VALIDATION_FAILED',
      );
  });
});
