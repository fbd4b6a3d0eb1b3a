/**
 * Dynamic client registration (RFC 7591, `oidcProvider({ dynamicRegistration })`) on a real server on port 0:
 * off by default (404, not in discovery); on, openid-client registers a client and runs the code flow with it;
 * refusals answer RFC 7591 §3.2.2 errors; the initial access token is required when configured.
 */
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixedWindowStorage, createLoginRateLimiter } from '../../rate-limit.js';
import type { OidcProviderExtension } from './plugin.js';
import { RP_REDIRECT, openidCodeFlow, startProvider } from './provider-harness.test-helpers.js';

const TOKEN = 'initial-access-token-0123456789-abcdef';

let op: Awaited<ReturnType<typeof startProvider>>;
let off: Awaited<ReturnType<typeof startProvider>>;
beforeAll(async () => {
  op = await startProvider({}, { dynamicRegistration: { initialAccessToken: TOKEN } });
  off = await startProvider();
});
afterAll(async () => {
  await op.close();
  await off.close();
});

const insecure = [client.allowInsecureRequests];

const register = (body: unknown, token: string | null = TOKEN, issuer = op.issuer) =>
  fetch(`${issuer}/oauth2/register`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });

/** The provider's storage (`auth.extensions` is not typed by the harness). */
const storage = () => (op.auth.extensions.oidcProvider as OidcProviderExtension).storage;

const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error;

describe('oidcProvider dynamic registration', () => {
  it('is off by default: 404 and no registration_endpoint in discovery', async () => {
    const res = await register({ redirect_uris: [RP_REDIRECT] }, null, off.issuer);
    expect(res.status).toBe(404);
    const meta = (await (await fetch(`${off.issuer}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    expect(meta).not.toHaveProperty('registration_endpoint');
  });

  it('registers a confidential client with openid-client, which then runs the code flow', async () => {
    const config = await client.dynamicClientRegistration(
      new URL(op.issuer),
      { redirect_uris: [RP_REDIRECT], client_name: 'Registered RP', token_endpoint_auth_method: 'client_secret_basic' },
      undefined,
      { initialAccessToken: TOKEN, execute: insecure },
    );
    expect(config.serverMetadata().registration_endpoint).toBe(`${op.issuer}/oauth2/register`);
    const meta = config.clientMetadata();
    expect(meta.client_id).toMatch(/^c_/);
    expect(meta.client_secret).toBeTypeOf('string');
    expect(meta.client_secret_expires_at).toBe(0);
    expect(meta.client_id_issued_at).toBeTypeOf('number');
    expect(meta.redirect_uris).toStrictEqual([RP_REDIRECT]);
    // Stored hashed, never in clear.
    const stored = await storage().getClient(meta.client_id);
    expect(stored).toMatchObject({ public: false, name: 'Registered RP', redirectUris: [RP_REDIRECT] });
    expect(stored!.secretHash).not.toBe(meta.client_secret);
    const { tokens } = await openidCodeFlow(op, config);
    expect(tokens.claims()).toMatchObject({ iss: op.issuer, aud: meta.client_id, sub: op.userId });
  });

  it('gives a public client no secret', async () => {
    const res = await register({ redirect_uris: ['http://127.0.0.1:9000/cb'], token_endpoint_auth_method: 'none' });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).not.toHaveProperty('client_secret');
    expect(body).toMatchObject({ token_endpoint_auth_method: 'none', grant_types: ['authorization_code'] });
    const stored = await storage().getClient(body.client_id as string);
    expect(stored).toMatchObject({ public: true, secretHash: null });
  });

  it.each([
    ['a fragment', { redirect_uris: ['https://rp.example/cb#frag'] }, 'invalid_redirect_uri'],
    ['http off loopback', { redirect_uris: ['http://rp.example/cb'] }, 'invalid_redirect_uri'],
    ['localhost (not an IP literal)', { redirect_uris: ['http://localhost:9000/cb'] }, 'invalid_redirect_uri'],
    ['a wildcard', { redirect_uris: ['https://*.rp.example/cb'] }, 'invalid_redirect_uri'],
    ['no redirect_uris', { client_name: 'x' }, 'invalid_redirect_uri'],
    ['an empty redirect_uris', { redirect_uris: [] }, 'invalid_redirect_uri'],
    [
      'an unknown auth method',
      { redirect_uris: [RP_REDIRECT], token_endpoint_auth_method: 'private_key_jwt' },
      'invalid_client_metadata',
    ],
    ['an unknown grant type', { redirect_uris: [RP_REDIRECT], grant_types: ['implicit'] }, 'invalid_client_metadata'],
    ['a token response type', { redirect_uris: [RP_REDIRECT], response_types: ['token'] }, 'invalid_client_metadata'],
    ['an unknown scope', { redirect_uris: [RP_REDIRECT], scope: 'openid admin' }, 'invalid_client_metadata'],
    ['a JSON array', [RP_REDIRECT], 'invalid_client_metadata'],
  ])('refuses %s with 400', async (_case, body, error) => {
    const res = await register(body);
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toBe(error);
  });

  it('requires the initial access token: missing or wrong → 401', async () => {
    const missing = await register({ redirect_uris: [RP_REDIRECT] }, null);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect(await errorOf(missing)).toBe('invalid_token');
    const wrong = await register({ redirect_uris: [RP_REDIRECT] }, `${TOKEN}x`);
    expect(wrong.status).toBe(401);
    expect(await errorOf(wrong)).toBe('invalid_token');
    await expect(
      client.dynamicClientRegistration(new URL(op.issuer), { redirect_uris: [RP_REDIRECT] }, undefined, {
        execute: insecure,
      }),
    ).rejects.toBeDefined();
  });

  it('counts registrations per IP on the login limiter', async () => {
    const login = createLoginRateLimiter(createFixedWindowStorage(), { limit: 2, window: 60 });
    const limited = await startProvider({ rateLimit: { login } }, { dynamicRegistration: {} });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await register({ redirect_uris: [RP_REDIRECT] }, null, limited.issuer)).status);
      expect(statuses).toStrictEqual([201, 201, 429]);
    } finally {
      await limited.close();
    }
  });
});
