/**
 * `oidcProvider()` against a malicious client or a tampered browser, on a real server on port 0: swapped
 * redirect URIs, replayed, foreign and expired codes, PKCE downgrades, secrets from a public client, open
 * redirects, and the refusals of `prompt=none`, Deny, and a withdrawn consent.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuth } from '../../auth.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import { SECRET } from '../../testing/fixtures.js';
import { jwt } from '../jwt/index.js';
import { oidcProvider, type OidcProviderExtension } from './index.js';
import {
  Browser,
  PUBLIC_REDIRECT,
  RP_REDIRECT,
  RP_SECRET,
  movableClock,
  startProvider,
} from './provider-harness.test-helpers.js';

const clock = movableClock();
let op: Awaited<ReturnType<typeof startProvider>>;
let browser: Browser;
beforeAll(async () => {
  op = await startProvider({ clock });
  browser = op.browser();
  await browser.signIn();
});
afterAll(() => op.close());

const VERIFIER = 'dBjftJeZ4CVP-mJ92K1qDvh3ejoKV0MV55FRHxjj3L4';
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');
const RP = { id: 'rp', secret: RP_SECRET };

function authorizeUrl(params: Record<string, string | null> = {}): string {
  const all: Record<string, string | null> = {
    client_id: 'rp',
    redirect_uri: RP_REDIRECT,
    response_type: 'code',
    scope: 'openid email',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    state: 'st-1',
    ...params,
  };
  const search = new URLSearchParams(Object.entries(all).filter((e): e is [string, string] => e[1] !== null));
  return `/auth/oauth2/authorize?${search.toString()}`;
}

/** Withdraws the test user's consent to `rp`, so the next authorization asks again. */
const forget = () =>
  (op.auth.extensions as { oidcProvider: OidcProviderExtension }).oidcProvider.revokeConsent(op.userId, 'rp');

/** A fresh code for `params` (consent given on the way). */
async function code(params: Record<string, string | null> = {}, b = browser): Promise<string> {
  const back = await b.authorize(authorizeUrl(params));
  const value = back.searchParams.get('code');
  if (!value) throw new Error(`no code: ${back.href}`);
  return value;
}

async function token(body: Record<string, string>, client: { id: string; secret?: string } | null = RP) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (client?.secret !== undefined)
    headers.authorization = `Basic ${btoa(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`)}`;
  else if (client) body = { client_id: client.id, ...body };
  const res = await fetch(`${op.issuer}/oauth2/token`, { method: 'POST', headers, body: new URLSearchParams(body) });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

const exchange = (c: string, extra: Record<string, string> = {}, client: { id: string; secret?: string } | null = RP) =>
  token(
    { grant_type: 'authorization_code', code: c, redirect_uri: RP_REDIRECT, code_verifier: VERIFIER, ...extra },
    client,
  );

async function introspect(t: string): Promise<boolean> {
  const res = await fetch(`${op.issuer}/oauth2/introspect`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${btoa(`rp:${RP_SECRET}`)}` },
    body: new URLSearchParams({ token: t }),
  });
  return ((await res.json()) as { active: boolean }).active;
}

describe('oidcProvider: the token endpoint refuses', () => {
  it('nothing it was not asked for: no refresh token without offline_access (OpenID Connect Core §11)', async () => {
    const res = await exchange(await code({ scope: 'openid email' }));
    expect(res.status).toBe(200);
    expect(res.body.access_token).toBeTruthy();
    expect(res.body).not.toHaveProperty('refresh_token');
  });

  it('a redirect_uri other than the authorization request’s', async () => {
    const res = await exchange(await code(), { redirect_uri: 'https://rp.example/other' });
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('a replayed code, and revokes what its first use issued', async () => {
    const c = await code({ scope: 'openid email offline_access' });
    const first = await exchange(c);
    expect(first.status).toBe(200);
    expect(await introspect(first.body.access_token!)).toBe(true);
    expect(first.body.refresh_token).toBeTruthy();
    const second = await exchange(c);
    expect(second).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await introspect(first.body.access_token!)).toBe(false);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token! });
    expect(refreshed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('a missing, plain-text or wrong code_verifier (PKCE)', async () => {
    const { code_verifier: _, ...without } = { code_verifier: '' };
    void _;
    const none = await token({
      grant_type: 'authorization_code',
      code: await code(),
      redirect_uri: RP_REDIRECT,
      ...without,
    });
    expect(none).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // "plain": the verifier is the challenge itself.
    const plain = await exchange(await code(), { code_verifier: CHALLENGE });
    expect(plain).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const wrong = await exchange(await code(), { code_verifier: `${VERIFIER.slice(0, -1)}M` });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // The right verifier still works on a fresh code (the refusals are not of the setup).
    expect((await exchange(await code())).status).toBe(200);
  });

  it('another client’s code', async () => {
    const c = await code({ client_id: 'cli', redirect_uri: PUBLIC_REDIRECT });
    const res = await token({
      grant_type: 'authorization_code',
      code: c,
      redirect_uri: PUBLIC_REDIRECT,
      code_verifier: VERIFIER,
    });
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // Burnt: the public client itself cannot use it now.
    const own = await token(
      { grant_type: 'authorization_code', code: c, redirect_uri: PUBLIC_REDIRECT, code_verifier: VERIFIER },
      { id: 'cli' },
    );
    expect(own).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('an expired code (60 s by default)', async () => {
    const c = await code();
    clock.advance(61_000);
    try {
      expect(await exchange(c)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    } finally {
      clock.advance(-61_000);
    }
  });

  it('a public client that sends a secret, and a wrong or missing secret', async () => {
    const pub = await code({ client_id: 'cli', redirect_uri: PUBLIC_REDIRECT });
    const body = {
      grant_type: 'authorization_code',
      code: pub,
      redirect_uri: PUBLIC_REDIRECT,
      code_verifier: VERIFIER,
    };
    const withSecret = await token({ ...body, client_secret: 'x'.repeat(40) }, { id: 'cli' });
    expect(withSecret).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect((await token(body, { id: 'cli' })).status).toBe(200);
    const wrong = await exchange(await code(), {}, { id: 'rp', secret: `${RP_SECRET}x` });
    expect(wrong).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const missing = await exchange(await code(), {}, { id: 'rp' });
    expect(missing).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });

  it('an unknown grant_type', async () => {
    expect(await token({ grant_type: 'password' })).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type' },
    });
  });
});

describe('oidcProvider: the authorize step', () => {
  it('shows the error page and never redirects for an unknown client or an unregistered redirect_uri', async () => {
    const cases: Record<string, string | null>[] = [
      { client_id: 'nobody' },
      { redirect_uri: 'https://evil.example/callback' },
      { redirect_uri: `${RP_REDIRECT}/` },
      { redirect_uri: `${RP_REDIRECT}?next=https://evil.example` },
      { redirect_uri: null },
    ];
    for (const params of cases) {
      const res = await browser.request(authorizeUrl(params), { headers: { accept: 'text/html' } });
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.headers.get('location')).toBeNull();
    }
  });

  it('sends PKCE downgrades back as invalid_request with the state', async () => {
    const downgrades: Record<string, string | null>[] = [
      { code_challenge: null, code_challenge_method: null },
      { code_challenge_method: 'plain' },
      { code_challenge_method: null },
    ];
    for (const params of downgrades) {
      const res = await browser.request(authorizeUrl(params));
      expect(res.status).toBe(303);
      const back = new URL(res.headers.get('location')!);
      expect(back.origin + back.pathname).toBe(RP_REDIRECT);
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('state')).toBe('st-1');
      expect(back.searchParams.get('code')).toBeNull();
    }
  });

  it('refuses a scope the client may not ask for, and response types other than code', async () => {
    const scope = new URL((await browser.request(authorizeUrl({ scope: 'openid admin' }))).headers.get('location')!);
    expect(scope.searchParams.get('error')).toBe('invalid_scope');
    const implicit = new URL(
      (await browser.request(authorizeUrl({ response_type: 'token' }))).headers.get('location')!,
    );
    expect(implicit.searchParams.get('error')).toBe('unsupported_response_type');
  });

  it('sends a signed-out browser to sign in and back; prompt=none answers login_required', async () => {
    const stranger = op.browser();
    const res = await stranger.request(authorizeUrl());
    expect(res.status).toBe(303);
    const signIn = new URL(res.headers.get('location')!, op.base);
    expect(signIn.pathname).toBe('/auth/signin');
    expect(signIn.searchParams.get('callbackUrl')).toBe(authorizeUrl());
    const none = await stranger.request(authorizeUrl({ prompt: 'none' }));
    expect(new URL(none.headers.get('location')!).searchParams.get('error')).toBe('login_required');
  });

  it('sends the person to sign in again for prompt=login and an exceeded max_age, then issues the code', async () => {
    const b = op.browser();
    await b.signIn();
    await b.authorize(authorizeUrl()); // consent given
    const login = await b.request(authorizeUrl({ prompt: 'login' }));
    expect(login.status).toBe(303);
    const again = new URL(login.headers.get('location')!, op.base);
    expect(again.pathname).toBe('/auth/signin');
    const back = again.searchParams.get('callbackUrl')!;
    expect(back).toBe(authorizeUrl({ prompt: 'login' }));
    const pending = login.headers.getSetCookie().find((l) => l.startsWith('framework.oidc-reauth='));
    expect(pending).toMatch(/HttpOnly/i);
    // Coming back without signing in again is not enough.
    expect(new URL((await b.request(back)).headers.get('location')!, op.base).pathname).toBe('/auth/signin');
    clock.advance(2000);
    try {
      await b.signIn();
      const issued = new URL((await b.request(back)).headers.get('location')!);
      expect(issued.searchParams.get('code')).toBeTruthy();
      // max_age: a sign-in older than it sends the person to sign in again.
      clock.advance(10_000);
      const old = await b.request(authorizeUrl({ max_age: '5' }));
      expect(new URL(old.headers.get('location')!, op.base).pathname).toBe('/auth/signin');
      // That request edited to a larger max_age is still bound to the fresh sign-in; a new request is not.
      const edited = await b.request(authorizeUrl({ max_age: '60' }));
      expect(new URL(edited.headers.get('location')!, op.base).pathname).toBe('/auth/signin');
      const fresh = await b.request(authorizeUrl({ max_age: '60', state: 'st-2' }));
      expect(new URL(fresh.headers.get('location')!).searchParams.get('code')).toBeTruthy();
    } finally {
      clock.advance(-12_000);
    }
  });

  it('binds a forced re-login server-side: an edited or stripped return URL does not skip it', async () => {
    const b = op.browser();
    await b.signIn();
    await b.authorize(authorizeUrl()); // consent given
    const onSignIn = (res: Response) => new URL(res.headers.get('location')!, op.base).pathname === '/auth/signin';
    for (const params of [{ prompt: 'login' }, { max_age: '0' }] as Record<string, string>[]) {
      clock.advance(5000);
      expect(onSignIn(await b.request(authorizeUrl(params)))).toBe(true);
      // The same request with prompt / max_age stripped, or with the old `auth_after` parameter set to the past,
      // still wants the fresh sign-in it was sent for.
      for (const edited of [
        authorizeUrl(),
        authorizeUrl({ ...params, auth_after: '0' }),
        authorizeUrl({ prompt: null, max_age: null, auth_after: '0' }),
      ])
        expect(onSignIn(await b.request(edited)), edited).toBe(true);
      // Signing in again satisfies it (even for max_age=0, whose sign-in is already older than 0 s on return).
      clock.advance(1000);
      await b.signIn();
      const issued = await b.request(authorizeUrl(params));
      expect(new URL(issued.headers.get('location')!).searchParams.get('code')).toBeTruthy();
      expect(b.cookies.has('framework.oidc-reauth')).toBe(false);
    }
  });

  it('a signed-out person asked for prompt=login signs in once and gets the code', async () => {
    const b = op.browser();
    const first = await b.request(authorizeUrl({ prompt: 'login' }));
    const back = new URL(first.headers.get('location')!, op.base).searchParams.get('callbackUrl')!;
    await b.signIn();
    const issued = await b.authorize(back);
    expect(issued.searchParams.get('code')).toBeTruthy();
  });

  it('answers access_denied when the user denies, and consent_required under prompt=none before consent', async () => {
    const b = op.browser();
    await b.signIn();
    await forget();
    const none = await b.request(authorizeUrl({ prompt: 'none' }));
    expect(new URL(none.headers.get('location')!).searchParams.get('error')).toBe('consent_required');
    const denied = await b.authorize(authorizeUrl(), 'deny');
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('st-1');
  });

  it('refuses a consent post without the CSRF token', async () => {
    const b = op.browser();
    await b.signIn();
    const page = await (
      await b.request(authorizeUrl({ prompt: 'consent' }), { headers: { accept: 'text/html' } })
    ).text();
    const request = /name="request" value="([^"]+)"/.exec(page)![1]!;
    const res = await b.request('/auth/oauth2/consent', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: op.base },
      body: new URLSearchParams({ request, decision: 'allow' }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('location')).toBeNull();
  });
});

describe('oidcProvider: Apps with access', () => {
  it('lists the apps the user allowed, and Revoke withdraws the consent and ends their tokens', async () => {
    const b = op.browser();
    await b.signIn();
    const issued = await exchange(await code({}, b));
    expect(await introspect(issued.body.access_token!)).toBe(true);
    const list = await b.request('/auth/oauth2/consents', { headers: { accept: 'application/json' } });
    expect(((await list.json()) as { apps: { clientId: string; name: string }[] }).apps).toContainEqual(
      expect.objectContaining({ clientId: 'rp', name: 'Relying Party' }),
    );
    const page = await (await b.request('/auth/oauth2/consents', { headers: { accept: 'text/html' } })).text();
    expect(page).toContain('Relying Party');
    // auth.api, acting as this browser's session, lists the same.
    const api = op.auth.api as unknown as {
      listAppsWithAccess(body: undefined, o: { headers: Headers }): Promise<{ apps: { clientId: string }[] }>;
    };
    const cookie = [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const fromApi = await api.listAppsWithAccess(undefined, { headers: new Headers({ cookie }) });
    expect(fromApi.apps.map((a) => a.clientId)).toContain('rp');
    const revoked = await b.submit(page, { clientId: 'rp' });
    expect(revoked.status).toBe(303);
    expect(await introspect(issued.body.access_token!)).toBe(false);
    const again = await b.request(authorizeUrl({ prompt: 'none' }));
    expect(new URL(again.headers.get('location')!).searchParams.get('error')).toBe('consent_required');
  });
});

describe('oidcProvider clients registered at run time', () => {
  it('creates a confidential client whose secret authenticates, and a public one without a secret', async () => {
    const ext = (op.auth.extensions as { oidcProvider: OidcProviderExtension }).oidcProvider;
    const made = await ext.createClient({ name: 'Partner', redirectUris: ['https://partner.example/cb'] });
    expect(made.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(made.client).toMatchObject({ public: false, name: 'Partner', redirectUris: ['https://partner.example/cb'] });
    expect(made.client.secretHash).not.toContain(made.clientSecret);
    const ask = (secret: string) =>
      fetch(`${op.issuer}/oauth2/introspect`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: 'nothing', client_id: made.client.id, client_secret: secret }),
      });
    expect(await (await ask(made.clientSecret!)).json()).toStrictEqual({ active: false });
    expect((await ask(`${made.clientSecret!}x`)).status).toBe(401);
    const pub = await ext.createClient({
      clientId: 'mobile',
      name: 'Mobile',
      redirectUris: ['app.example:/cb'],
      public: true,
    });
    expect(pub.clientSecret).toBeUndefined();
    expect(pub.client).toMatchObject({ id: 'mobile', public: true, secretHash: null });
    await expect(ext.createClient({ name: 'Bad', redirectUris: ['not a url'] })).rejects.toThrow(/malformed URL/);
  });
});

describe('oidcProvider configuration', () => {
  it('refuses createAuth without jwt() before it', () => {
    expect(() =>
      createAuth({
        baseURL: 'http://app.test',
        secret: SECRET,
        adapter: createMemoryAdapter(),
        providers: [],
        plugins: [oidcProvider({ clients: [] })],
      }),
    ).toThrow(/needs jwt\(\) before it/);
    // jwt() after it is not initialised yet when oidcProvider() looks (AuthInternals.extensionOf).
    expect(() =>
      createAuth({
        baseURL: 'http://app.test',
        secret: SECRET,
        adapter: createMemoryAdapter(),
        providers: [],
        plugins: [oidcProvider({ clients: [] }), jwt({ audience: 'https://api.example' })],
      }),
    ).toThrow(/needs jwt\(\) before it/);
    expect(() =>
      createAuth({
        baseURL: 'http://app.test',
        secret: SECRET,
        adapter: createMemoryAdapter(),
        providers: [],
        plugins: [jwt({ audience: 'https://api.example' }), oidcProvider({ clients: [] })],
      }),
    ).not.toThrow();
  });

  it('refuses a client with a fragment in a redirect URI or a short secret', () => {
    expect(() =>
      oidcProvider({ clients: [{ clientId: 'a', name: 'A', redirectUris: ['https://a.example/cb#x'] }] }),
    ).toThrow(/fragment/);
    expect(() =>
      oidcProvider({
        clients: [{ clientId: 'a', name: 'A', clientSecret: 'short', redirectUris: ['https://a.example/cb'] }],
      }),
    ).toThrow(/at least 32/);
  });
});
