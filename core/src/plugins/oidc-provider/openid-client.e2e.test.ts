/**
 * `oidcProvider()` against a client we did not write: openid-client (panva) runs the whole flow against the kit
 * served on port 0 (discovery, PKCE, the authorize step in a signed-in browser, the code exchange with ID-token
 * validation, UserInfo, refresh with rotation, revocation, introspection, end-session), and oauth4webapi's strict
 * checks run the code flow of a public client.
 */
import { createHash } from 'node:crypto';
import * as client from 'openid-client';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL } from '../../testing/fixtures.js';
import {
  PUBLIC_REDIRECT,
  RP_LOGOUT,
  RP_REDIRECT,
  RP_SECRET,
  openidCodeFlow,
  startProvider,
} from './provider-harness.test-helpers.js';

let op: Awaited<ReturnType<typeof startProvider>>;
beforeAll(async () => {
  op = await startProvider();
});
afterAll(() => op.close());

const insecure = { execute: [client.allowInsecureRequests] };
const discover = (id = 'rp', auth: client.ClientAuth = client.ClientSecretBasic(RP_SECRET)) =>
  client.discovery(new URL(op.issuer), id, undefined, auth, insecure);

const codeFlow = (config: client.Configuration, scope?: string) => openidCodeFlow(op, config, scope);

describe('oidcProvider with openid-client', () => {
  it('publishes discovery with only what is implemented', async () => {
    const config = await discover();
    const meta = config.serverMetadata();
    expect(meta.issuer).toBe(op.issuer);
    expect(meta.response_types_supported).toStrictEqual(['code']);
    expect(meta.code_challenge_methods_supported).toStrictEqual(['S256']);
    expect(meta.grant_types_supported).toStrictEqual(['authorization_code', 'refresh_token']);
    expect(meta.scopes_supported).toStrictEqual(['openid', 'profile', 'email', 'offline_access']);
    expect(meta.token_endpoint_auth_methods_supported).toStrictEqual([
      'client_secret_basic',
      'client_secret_post',
      'none',
    ]);
    expect(meta.jwks_uri).toBe(`${op.issuer}/jwks`);
    expect(meta.id_token_signing_alg_values_supported).toStrictEqual(['EdDSA']);
  });

  it('runs the code flow: consent, code exchange, a valid ID token, UserInfo by scope', async () => {
    const config = await discover();
    const { tokens, back } = await codeFlow(config);
    expect(back.origin + back.pathname).toBe(RP_REDIRECT);
    expect(back.searchParams.get('iss')).toBe(op.issuer);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: op.issuer, aud: 'rp', sub: op.userId, email: EMAIL, email_verified: false });
    expect(claims.auth_time).toBeTypeOf('number');
    // at_hash (OpenID Connect Core 1.0 §3.1.3.6): the left half of the EdDSA (Ed25519) hash, SHA-512, of the token.
    const digest = createHash('sha512').update(tokens.access_token).digest();
    expect(claims.at_hash).toBe(digest.subarray(0, digest.length / 2).toString('base64url'));
    expect(claims.amr).toStrictEqual(['pwd']);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope).toBe('openid profile email offline_access');
    const info = await client.fetchUserInfo(config, tokens.access_token, op.userId);
    expect(info).toStrictEqual({ sub: op.userId, name: 'Ada', email: EMAIL, email_verified: false });
  });

  it('authenticates a confidential client with client_secret_post too', async () => {
    const config = await discover('rp', client.ClientSecretPost(RP_SECRET));
    const { tokens } = await codeFlow(config, 'openid');
    expect(tokens.claims()?.aud).toBe('rp');
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(true);
    const wrong = await discover('rp', client.ClientSecretPost(`${RP_SECRET}!`));
    await expect(client.tokenIntrospection(wrong, tokens.access_token)).rejects.toMatchObject({
      error: 'invalid_client',
    });
  });

  it('remembers consent: a second authorization skips the page; prompt=consent shows it again', async () => {
    const config = await discover();
    const { browser } = await codeFlow(config, 'openid email');
    const url = (extra: Record<string, string> = {}) =>
      client.buildAuthorizationUrl(config, {
        redirect_uri: RP_REDIRECT,
        scope: 'openid email',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        ...extra,
      });
    const again = await browser.request(url().href);
    expect(again.status).toBe(303);
    expect(new URL(again.headers.get('location')!).searchParams.get('code')).toBeTruthy();
    const asked = await browser.request(url({ prompt: 'consent' }).href);
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain('Allow Relying Party');
  });

  it('issues a refresh token only when offline_access was asked for', async () => {
    const config = await discover();
    const { tokens } = await codeFlow(config, 'openid profile email');
    expect(tokens.access_token).toBeTruthy();
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.scope).toBe('openid profile email');
  });

  it('refreshes with rotation; a rotated token used again revokes the family', async () => {
    const config = await discover();
    const { tokens } = await codeFlow(config, 'openid profile email offline_access');
    const first = tokens.refresh_token!;
    const second = await client.refreshTokenGrant(config, first);
    expect(second.refresh_token).toBeTruthy();
    expect(second.refresh_token).not.toBe(first);
    expect(second.claims()?.sub).toBe(op.userId);
    expect((await client.tokenIntrospection(config, second.access_token)).active).toBe(true);
    // The old token again: refused, and every token of the family stops working.
    await expect(client.refreshTokenGrant(config, first)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(client.refreshTokenGrant(config, second.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect((await client.tokenIntrospection(config, second.access_token)).active).toBe(false);
    await expect(client.fetchUserInfo(config, second.access_token, op.userId)).rejects.toThrow();
  });

  it('introspects live tokens, and revocation (RFC 7009) ends the grant', async () => {
    const config = await discover();
    const { tokens } = await codeFlow(config);
    const access = await client.tokenIntrospection(config, tokens.access_token);
    expect(access).toMatchObject({ active: true, client_id: 'rp', sub: op.userId, token_type: 'Bearer' });
    const refresh = await client.tokenIntrospection(config, tokens.refresh_token!);
    expect(refresh).toMatchObject({ active: true, token_type: 'refresh_token', client_id: 'rp' });
    expect((await client.tokenIntrospection(config, 'not-a-token')).active).toBe(false);
    await client.tokenRevocation(config, tokens.refresh_token!);
    expect((await client.tokenIntrospection(config, tokens.refresh_token!)).active).toBe(false);
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    await expect(client.fetchUserInfo(config, tokens.access_token, op.userId)).rejects.toThrow();
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('ends the session from an id_token_hint and returns to the registered address with state', async () => {
    const config = await discover();
    const { tokens, browser } = await codeFlow(config);
    const url = client.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: RP_LOGOUT,
      state: 'bye',
    });
    const page = await browser.request(url.href, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    // The GET signed nobody out.
    expect((await (await browser.request('/auth/session')).json()) as unknown).toMatchObject({
      user: { email: EMAIL },
    });
    const out = await browser.submit(await page.text());
    expect(out.status).toBe(303);
    const done = await browser.request(out.headers.get('location')!);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`${RP_LOGOUT}?state=bye`);
    expect(await (await browser.request('/auth/session')).json()).toBeNull();
    // An address the client did not register is refused with the error page, never redirected to.
    const bad = client.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: 'https://evil.example/',
    });
    const refused = await browser.request(bad.href, { headers: { accept: 'text/html' } });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
  });
});

describe('oidcProvider with oauth4webapi (strict checks), a public client', () => {
  it('runs the code flow of a public client (token_endpoint_auth_method none)', async () => {
    const issuer = new URL(op.issuer);
    const opts = { [oauth.allowInsecureRequests]: true };
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, opts));
    const rp: oauth.Client = { client_id: 'cli' };
    const verifier = oauth.generateRandomCodeVerifier();
    const nonce = oauth.generateRandomNonce();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: 'cli',
      redirect_uri: PUBLIC_REDIRECT,
      response_type: 'code',
      scope: 'openid email',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce,
      state,
    }).toString();
    const browser = op.browser();
    await browser.signIn();
    const back = await browser.authorize(url);
    const params = oauth.validateAuthResponse(as, rp, back, state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      rp,
      oauth.None(),
      params,
      PUBLIC_REDIRECT,
      verifier,
      opts,
    );
    const result = await oauth.processAuthorizationCodeResponse(as, rp, response, {
      expectedNonce: nonce,
      requireIdToken: true,
    });
    const claims = oauth.getValidatedIdTokenClaims(result)!;
    expect(claims).toMatchObject({ iss: op.issuer, aud: 'cli', sub: op.userId, email: EMAIL, nonce });
    const info = await oauth.userInfoRequest(as, rp, result.access_token, opts);
    expect(await oauth.processUserInfoResponse(as, rp, op.userId, info)).toMatchObject({ email: EMAIL });
  });
});
