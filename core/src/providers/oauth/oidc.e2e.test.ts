/**
 * The authorization code flow end to end against a real OIDC provider
 * (oauth2-mock-server), with a custom provider from createOAuth2Provider.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OAuth2Server } from 'oauth2-mock-server';
import { createOAuth2Provider } from './create.js';
import { Browser, makeAuth, patchNextIdToken, startProvider, claimsProfile } from './oauth-harness.js';
import { passwordAccounts } from '../../password-accounts.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import type { CreateAuthOptions } from '../../auth.js';

let provider: Awaited<ReturnType<typeof startProvider>>;
let server: OAuth2Server;
beforeAll(async () => {
  provider = await startProvider();
  server = provider.server;
});
afterAll(() => provider.stop());

const devOidc = (overrides: { trustEmail?: boolean } = {}) =>
  createOAuth2Provider({
    id: 'devoidc',
    name: 'Dev OIDC',
    issuer: provider.issuer,
    clientId: 'kitclient',
    clientSecret: 'kit-client-secret',
    profile: claimsProfile,
    ...overrides,
  });

function setup(options: Partial<CreateAuthOptions> = {}, providerOptions: { trustEmail?: boolean } = {}) {
  const env = makeAuth({ providers: [devOidc(providerOptions)], ...options });
  return { ...env, browser: () => new Browser(env.auth) };
}

const errorOf = (res: Response) => new URL(res.headers.get('location')!, 'http://x').searchParams.get('error');

describe('OIDC authorization code flow (custom provider)', () => {
  it('starts with state, PKCE S256 and nonce, and keeps them in an encrypted httpOnly cookie', async () => {
    const { browser } = setup();
    const b = browser();
    const url = await b.start('devoidc');
    expect(url.origin + url.pathname).toBe(`${provider.issuer}/authorize`);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('client_id')).toBe('kitclient');
    expect(url.searchParams.get('redirect_uri')).toBe('http://app.test/auth/callback/devoidc');
    expect(url.searchParams.get('scope')).toBe('openid email profile');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    const flow = b.cookies.get('framework.oauth.devoidc')!;
    expect(flow.split('.')).toHaveLength(5); // compact JWE
    expect(flow).not.toContain(url.searchParams.get('state')!);
  });

  it('signs in a new user with an id of ours, stores the account, and redirects to the callbackUrl', async () => {
    const { browser, adapter } = setup();
    const b = browser();
    patchNextIdToken(server, {
      sub: 'oidc-user-1',
      email: 'new@example.com',
      name: 'New Person',
      email_verified: true,
    });
    const res = await b.signIn('devoidc', '/home');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/home');
    expect(b.cookies.has('framework.oauth.devoidc')).toBe(false);
    const session = await b.session();
    expect(session?.user).toMatchObject({ email: 'new@example.com', name: 'New Person' });
    expect(session?.user.id).not.toBe('oidc-user-1');
    const account = await adapter.getAccount({ provider: 'devoidc', providerAccountId: 'oidc-user-1' });
    expect(account).toMatchObject({ userId: session!.user.id, type: 'oidc', token_type: 'bearer' });
    expect(account?.access_token).toBeTruthy();
    expect(account?.refresh_token).toBeTruthy();
    expect(account?.id_token).toBeTruthy();
    expect(account!.expires_at!).toBeGreaterThan(Date.now() / 1000);

    // A second sign-in finds the same user through the account.
    const again = new Browser(b.auth);
    patchNextIdToken(server, { sub: 'oidc-user-1', email: 'new@example.com' });
    await again.signIn('devoidc');
    expect((await again.session())?.user.id).toBe(session!.user.id);
  });

  it('sends a new user to pages.newUser, and answers JSON clients with the URL', async () => {
    const { browser } = setup({ pages: { newUser: '/welcome' } });
    patchNextIdToken(server, { sub: 'oidc-new-2', email: 'second@example.com' });
    expect((await browser().signIn('devoidc')).headers.get('location')).toBe('/welcome');
    const b = browser();
    const csrfToken = await b.csrf();
    const res = await b.app('/auth/signin/devoidc', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ csrfToken }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { url: string }).url).toMatch(new RegExp(`^${provider.issuer}/authorize\\?`));
  });

  it('POST /signin/:provider needs the CSRF token', async () => {
    const { browser } = setup();
    const res = await browser().app('/auth/signin/devoidc', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(res.status).toBe(403);
  });

  it('rejects a tampered state', async () => {
    const { browser } = setup();
    const b = browser();
    const back = await b.authorize(await b.start('devoidc'));
    back.searchParams.set('state', 'tampered');
    const res = await b.app(back.href);
    expect(res.status).toBe(303);
    expect(errorOf(res)).toBe('OAuthCallbackError');
    expect(await b.session()).toBeNull();
  });

  it('rejects a callback without the flow cookie (login CSRF)', async () => {
    const { browser } = setup();
    const victim = browser();
    const attacker = browser();
    const back = await attacker.authorize(await attacker.start('devoidc'));
    const res = await victim.app(back.href);
    expect(errorOf(res)).toBe('OAuthCallbackError');
    expect(await victim.session()).toBeNull();
  });

  it('rejects a replayed code even with the old flow cookie', async () => {
    const { browser } = setup();
    const b = browser();
    const back = await b.authorize(await b.start('devoidc'));
    const flow = b.cookies.get('framework.oauth.devoidc')!;
    expect((await b.app(back.href)).headers.get('location')).toBe('/home');
    const replay = browser();
    replay.cookies.set('framework.oauth.devoidc', flow);
    const res = await replay.app(back.href);
    expect(errorOf(res)).toBe('OAuthCallbackError');
    expect(await replay.session()).toBeNull();
  });

  it.each([
    ['a wrong nonce', { nonce: 'not-the-nonce' }],
    ['an expired ID token', { iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }],
    ['a foreign audience', { aud: 'someone-else' }],
    ['a foreign issuer', { iss: 'https://evil.example' }],
  ])('rejects %s', async (_label, patch) => {
    const { browser } = setup();
    const b = browser();
    const back = await b.authorize(await b.start('devoidc'));
    patchNextIdToken(server, patch);
    const res = await b.app(back.href);
    expect(errorOf(res)).toBe('OAuthCallbackError');
    expect(await b.session()).toBeNull();
  });

  it('with nonce: false, sends no nonce and refuses an ID token that carries one', async () => {
    const { oauthProvider } = await import('./create.js');
    const noNonce = oauthProvider({
      id: 'nononce',
      name: 'No nonce',
      type: 'oidc',
      issuer: provider.issuer,
      endpoints: {},
      clientId: 'kitclient',
      clientSecret: 'kit-client-secret',
      scope: 'openid',
      nonce: false,
      profile: claimsProfile,
    });
    const { auth } = makeAuth({ providers: [noNonce] });
    const ok = new Browser(auth);
    const start = await ok.start('nononce');
    expect(start.searchParams.has('nonce')).toBe(false);
    patchNextIdToken(server, { sub: 'no-nonce-user' });
    expect((await ok.app((await ok.authorize(start)).href)).headers.get('location')).toBe('/home');

    const b = new Browser(auth);
    const back = await b.authorize(await b.start('nononce'));
    patchNextIdToken(server, { sub: 'no-nonce-user', nonce: 'injected' });
    expect(errorOf(await b.app(back.href))).toBe('OAuthCallbackError');
    expect(await b.session()).toBeNull();
  });

  it('rejects an ID token signed with a key outside the issuer JWKS', async () => {
    const { browser } = setup();
    const b = browser();
    const back = await b.authorize(await b.start('devoidc'));
    const handler = (token: { header: Record<string, unknown>; payload: Record<string, unknown> }) => {
      if (!('amr' in token.payload)) token.header.kid = 'unknown-kid';
    };
    server.service.on('beforeTokenSigning', handler);
    try {
      const res = await b.app(back.href);
      expect(errorOf(res)).toBe('OAuthCallbackError');
    } finally {
      server.service.off('beforeTokenSigning', handler);
    }
  });

  it('turns error=access_denied into the AccessDenied page, never a 500', async () => {
    const { browser } = setup();
    const b = browser();
    const start = await b.start('devoidc');
    const res = await b.app(`/auth/callback/devoidc?error=access_denied&state=${start.searchParams.get('state')}`);
    expect(res.status).toBe(303);
    expect(errorOf(res)).toBe('AccessDenied');
    const json = await b.app(`/auth/callback/devoidc?error=server_error&state=x`, {
      headers: { accept: 'application/json' },
    });
    expect(json.status).toBe(400);
  });

  it('an unknown provider in the callback is InvalidProvider, not a crash', async () => {
    const { browser } = setup();
    const res = await browser().app('/auth/callback/nope?code=x&state=y');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('This sign-in method is not available.');
  });
});

describe('account linking', () => {
  async function withPasswordUser(trustEmail: boolean) {
    const adapter = createMemoryAdapter();
    const existing = await passwordAccounts(adapter).register({
      email: 'ada@example.com',
      password: 'analytical-engine',
    });
    return { ...setup({ adapter }, { trustEmail }), existing };
  }

  it('links to the existing user when the provider is trusted and the email verified', async () => {
    const { browser, existing, adapter } = await withPasswordUser(true);
    const b = browser();
    patchNextIdToken(server, { sub: 'link-yes', email: 'ADA@example.com', email_verified: true });
    expect((await b.signIn('devoidc')).headers.get('location')).toBe('/home');
    expect((await b.session())?.user.id).toBe(existing.id);
    expect((await adapter.getUserByAccount({ provider: 'devoidc', providerAccountId: 'link-yes' }))?.id).toBe(
      existing.id,
    );
  });

  it.each([
    ['an untrusted provider', false, true],
    ['an unverified email', true, false],
  ])('refuses with OAuthAccountNotLinked for %s', async (_label, trust, verified) => {
    const { browser, adapter } = await withPasswordUser(trust);
    const b = browser();
    patchNextIdToken(server, { sub: `link-no-${String(trust)}`, email: 'ada@example.com', email_verified: verified });
    const res = await b.signIn('devoidc');
    expect(errorOf(res)).toBe('OAuthAccountNotLinked');
    expect(await b.session()).toBeNull();
    expect(
      await adapter.getUserByAccount({ provider: 'devoidc', providerAccountId: `link-no-${String(trust)}` }),
    ).toBeNull();
  });

  it('links a new account to the signed-in user', async () => {
    const adapter = createMemoryAdapter();
    const passwords = passwordAccounts(adapter);
    const user = await passwords.register({ email: 'grace@example.com', password: 'hopper-1906' });
    const { credentials } = await import('../credentials.js');
    const env = makeAuth({
      adapter,
      session: { strategy: 'database' },
      providers: [
        devOidc(),
        credentials({
          credentials: { email: { label: 'E', type: 'email' }, password: { label: 'P', type: 'password' } },
          authorize: passwords.authorize,
        }),
      ],
    });
    const b = new Browser(env.auth);
    const csrfToken = await b.csrf();
    await b.app('/auth/callback/credentials', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ csrfToken, email: 'grace@example.com', password: 'hopper-1906' }),
    });
    patchNextIdToken(server, { sub: 'grace-at-idp', email: 'other@example.com' });
    await b.signIn('devoidc');
    expect((await adapter.getUserByAccount({ provider: 'devoidc', providerAccountId: 'grace-at-idp' }))?.id).toBe(
      user.id,
    );
    expect((await b.session())?.user.id).toBe(user.id);
  });
});

describe('callbacks on OAuth sign-in', () => {
  it('signIn receives user, account and profile; jwt receives account and profile', async () => {
    const seen: Record<string, unknown> = {};
    const { browser } = setup({
      session: { strategy: 'jwt' },
      callbacks: {
        signIn: ({ user, account, profile }) => {
          Object.assign(seen, { user, account, profile });
          return true;
        },
        jwt: ({ token, account, profile, trigger }) => {
          if (trigger) Object.assign(seen, { jwtAccount: account, jwtProfile: profile, trigger });
          return token;
        },
      },
    });
    patchNextIdToken(server, { sub: 'cb-user', email: 'cb@example.com' });
    await browser().signIn('devoidc');
    expect(seen.user).toMatchObject({ email: 'cb@example.com' });
    expect(seen.account).toMatchObject({ provider: 'devoidc', providerAccountId: 'cb-user', type: 'oidc' });
    expect(seen.profile).toMatchObject({ sub: 'cb-user', iss: provider.issuer });
    expect(seen.jwtAccount).toMatchObject({ provider: 'devoidc' });
    expect(seen.jwtProfile).toMatchObject({ sub: 'cb-user' });
    expect(seen.trigger).toBe('signUp');
  });

  it('a signIn callback returning false denies with AccessDenied and stores nothing', async () => {
    const { browser, adapter } = setup({ callbacks: { signIn: () => false } });
    patchNextIdToken(server, { sub: 'denied-user' });
    const res = await browser().signIn('devoidc');
    expect(errorOf(res)).toBe('AccessDenied');
    expect(await adapter.getUserByAccount({ provider: 'devoidc', providerAccountId: 'denied-user' })).toBeNull();
  });
});

describe('auth.getAccessToken', () => {
  it('returns the stored token, refreshes an expired one once for concurrent callers, and stores the result', async () => {
    const { browser, auth, adapter } = setup();
    const b = browser();
    patchNextIdToken(server, { sub: 'refresh-user' });
    await b.signIn('devoidc');
    const request = () => new Request('http://app.test/', { headers: { cookie: b.header() } });
    const key = { provider: 'devoidc', providerAccountId: 'refresh-user' };
    const stored = await adapter.getAccount(key);
    expect(await auth.getAccessToken(request(), 'devoidc')).toBe(stored!.access_token);
    expect(await auth.getAccessToken(request(), 'other')).toBeNull();
    expect(await auth.getAccessToken(new Request('http://app.test/'), 'devoidc')).toBeNull();

    await adapter.updateAccount(key, { expires_at: Math.floor(Date.now() / 1000) - 10 });
    let refreshes = 0;
    const count = (res: { body: Record<string, unknown> }, req: { body: Record<string, string> }) => {
      if (req.body.grant_type !== 'refresh_token') return;
      refreshes++;
      res.body.access_token = `refreshed-${refreshes}`;
      res.body.refresh_token = 'rotated-refresh-token';
    };
    server.service.on('beforeResponse', count);
    try {
      const [a, c] = await Promise.all([
        auth.getAccessToken(request(), 'devoidc'),
        auth.getAccessToken(request(), 'devoidc'),
      ]);
      expect(a).toBe('refreshed-1');
      expect(c).toBe('refreshed-1');
      expect(refreshes).toBe(1);
    } finally {
      server.service.off('beforeResponse', count);
    }
    const updated = await adapter.getAccount(key);
    expect(updated).toMatchObject({ access_token: 'refreshed-1', refresh_token: 'rotated-refresh-token' });
    expect(updated!.expires_at!).toBeGreaterThan(Date.now() / 1000);
    // The refreshed token is now current: no second refresh.
    expect(await auth.getAccessToken(request(), 'devoidc')).toBe('refreshed-1');
  });

  it('fails with OAUTH_REFRESH_FAILED when the provider refuses the refresh token', async () => {
    const { browser, auth, adapter } = setup();
    const b = browser();
    patchNextIdToken(server, { sub: 'refresh-fail' });
    await b.signIn('devoidc');
    const key = { provider: 'devoidc', providerAccountId: 'refresh-fail' };
    await adapter.updateAccount(key, { expires_at: 1 });
    const refuse = (res: { statusCode: number; body: unknown }) => {
      res.statusCode = 400;
      res.body = { error: 'invalid_grant' };
    };
    server.service.once('beforeResponse', refuse);
    await expect(
      auth.getAccessToken(new Request('http://app.test/', { headers: { cookie: b.header() } }), 'devoidc'),
    ).rejects.toMatchObject({
      code: 'OAUTH_REFRESH_FAILED',
      status: 401,
    });
  });
});
