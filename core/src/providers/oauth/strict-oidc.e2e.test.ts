/**
 * The OIDC code flow end to end against a standards-strict OpenID Provider
 * (oidc-provider, OpenID-certified, in-process on port 0): the ID token holds
 * only `sub` and the protocol claims; `email`, `email_verified` and `name`
 * come only from the UserInfo endpoint (OIDC Core §5.4).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { createOAuth2Provider, type OAuth2ProviderOptions } from './create.js';
import { APP, Browser, makeAuth, claimsProfile } from './oauth-harness.js';
import { keycloak } from './presets/keycloak.js';
import { linkedin } from './presets/linkedin.js';
import { STRICT_CLIENTS, startStrictProvider, type StrictProvider } from './strict-provider.js';
import { passwordAccounts } from '../../password-accounts.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import type { CreateAuthOptions } from '../../auth.js';
import type { Profile } from '../../types.js';

const IDS = ['strict', 'strictjwt'] as const;
let op: StrictProvider;
beforeAll(async () => {
  op = await startStrictProvider(IDS.map((id) => `${APP}/auth/callback/${id}`));
  op.accounts.set('alice', { sub: 'alice', email: 'alice@example.com', email_verified: true, name: 'Alice Strict' });
  op.accounts.set('mallory', { sub: 'mallory', email: 'mallory@example.com', email_verified: true, name: 'Mallory' });
  op.accounts.set('unverified', {
    sub: 'unverified',
    email: 'ada@example.com',
    email_verified: false,
    name: 'Not Ada',
  });
});
afterAll(() => op.stop());

type ProviderOverrides = Partial<Pick<OAuth2ProviderOptions, 'userinfo' | 'skipUserInfo' | 'trustEmail'>> & {
  signed?: boolean;
};

function strictProvider(overrides: ProviderOverrides = {}) {
  const { signed, ...rest } = overrides;
  const client = signed ? STRICT_CLIENTS.signed : STRICT_CLIENTS.plain;
  return createOAuth2Provider({
    id: signed ? 'strictjwt' : 'strict',
    name: 'Strict OP',
    issuer: op.issuer,
    ...client,
    profile: claimsProfile,
    ...rest,
  });
}

function setup(overrides: ProviderOverrides = {}, options: Partial<CreateAuthOptions> = {}) {
  const warnings: string[] = [];
  const env = makeAuth({
    providers: [strictProvider(overrides)],
    logger: { error: (m) => warnings.push(m), warn: (m) => warnings.push(m) },
    ...options,
  });
  return { ...env, warnings, id: overrides.signed ? 'strictjwt' : 'strict' };
}

async function signIn(b: Browser, id: string, sub: string, init: RequestInit = {}): Promise<Response> {
  const back = await op.authorize(await b.start(id), sub);
  return b.app(back.href, init);
}

const errorOf = (res: Response) => new URL(res.headers.get('location')!, 'http://x').searchParams.get('error');
const JSON_CLIENT = { headers: { accept: 'application/json' } };

/**
 * A UserInfo endpoint of our own in front of the provider's: counts calls, records content types, can answer
 * instead.
 */
async function userinfoProxy(answer?: (upstream: Response) => Promise<{ status: number; type: string; body: string }>) {
  const seen: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const upstream = await fetch(`${op.issuer}/me`, {
      headers: { authorization: req.headers.authorization ?? '', accept: req.headers.accept ?? '' },
    });
    seen.push(upstream.headers.get('content-type') ?? '');
    const out = answer
      ? await answer(upstream)
      : { status: upstream.status, type: upstream.headers.get('content-type') ?? '', body: await upstream.text() };
    res.writeHead(out.status, { 'content-type': out.type }).end(out.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/userinfo`;
  return {
    url,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('strict OpenID Provider: claims only from UserInfo', () => {
  it('the ID token is minimal, and the user still gets email, name and a verified email from UserInfo', async () => {
    const seen: { profile?: Profile } = {};
    // trustEmail: only a provider trusted for emails may mark one verified (the pre-hijacking defence relies on it).
    const { auth, adapter } = setup(
      { trustEmail: true },
      { callbacks: { signIn: ({ profile }) => ((seen.profile = profile), true) } },
    );
    const b = new Browser(auth);
    const res = await signIn(b, 'strict', 'alice');
    expect(res.headers.get('location')).toBe('/home');

    const account = await adapter.getAccount({ provider: 'strict', providerAccountId: 'alice' });
    const idToken = decodeJwt(account!.id_token!);
    expect(idToken).not.toHaveProperty('email');
    expect(idToken).not.toHaveProperty('name');
    // Exactly what the strict provider sends: sub, nonce, aud, exp, iat, iss.
    expect(Object.keys(idToken).sort()).toEqual(['aud', 'exp', 'iat', 'iss', 'nonce', 'sub']);

    const session = await b.session();
    expect(session?.user).toMatchObject({ email: 'alice@example.com', name: 'Alice Strict' });
    expect((await adapter.getUser(session!.user.id))?.emailVerified).toBeInstanceOf(Date);
    expect(seen.profile).toMatchObject({
      sub: 'alice',
      email: 'alice@example.com',
      email_verified: true,
      iss: op.issuer,
      aud: STRICT_CLIENTS.plain.clientId,
    });
  });

  it('reads email_verified from UserInfo for account linking (trustEmail)', async () => {
    const adapter = createMemoryAdapter();
    const existing = await passwordAccounts(adapter).register({
      email: 'alice@example.com',
      password: 'correct-horse-1',
    });
    const { auth } = setup({ trustEmail: true }, { adapter });
    const b = new Browser(auth);
    expect((await signIn(b, 'strict', 'alice')).headers.get('location')).toBe('/home');
    expect((await b.session())?.user.id).toBe(existing.id);
  });

  it('refuses to link when UserInfo says the email is not verified (pre-hijacking)', async () => {
    const adapter = createMemoryAdapter();
    await passwordAccounts(adapter).register({ email: 'ada@example.com', password: 'analytical-engine' });
    const { auth } = setup({ trustEmail: true }, { adapter });
    const b = new Browser(auth);
    expect(errorOf(await signIn(b, 'strict', 'unverified'))).toBe('OAuthAccountNotLinked');
    expect(await b.session()).toBeNull();
    expect(await adapter.getUserByAccount({ provider: 'strict', providerAccountId: 'unverified' })).toBeNull();
  });

  it('accepts a signed UserInfo response (application/jwt) and checks its signature', async () => {
    const proxy = await userinfoProxy();
    try {
      const { auth } = setup({ signed: true, userinfo: proxy.url });
      const b = new Browser(auth);
      expect((await signIn(b, 'strictjwt', 'alice')).headers.get('location')).toBe('/home');
      expect((await b.session())?.user).toMatchObject({ email: 'alice@example.com', name: 'Alice Strict' });
      expect(proxy.seen).toHaveLength(1);
      expect(proxy.seen[0]).toMatch(/^application\/jwt/);
    } finally {
      await proxy.close();
    }
  });

  it('rejects a signed UserInfo response whose signature was tampered with', async () => {
    const proxy = await userinfoProxy(async (upstream) => {
      const [h, p, s] = (await upstream.text()).split('.');
      const flipped = (s![0] === 'A' ? 'B' : 'A') + s!.slice(1);
      return { status: 200, type: 'application/jwt', body: `${h}.${p}.${flipped}` };
    });
    try {
      const { auth, adapter, warnings } = setup({ signed: true, userinfo: proxy.url });
      const b = new Browser(auth);
      expect(errorOf(await signIn(b, 'strictjwt', 'alice'))).toBe('OAuthUserInfoFailed');
      expect(await adapter.getUserByAccount({ provider: 'strictjwt', providerAccountId: 'alice' })).toBeNull();
      expect(warnings.join('\n')).toContain(proxy.url);
    } finally {
      await proxy.close();
    }
  });
});

describe('OIDC presets against the strict provider', () => {
  it('keycloak (standard claims mapping, no profile function) gets the email from UserInfo', async () => {
    const { auth } = makeAuth({ providers: [keycloak({ id: 'strict', issuer: op.issuer, ...STRICT_CLIENTS.plain })] });
    const b = new Browser(auth);
    expect((await signIn(b, 'strict', 'alice')).headers.get('location')).toBe('/home');
    expect((await b.session())?.user).toMatchObject({ email: 'alice@example.com', name: 'Alice Strict' });
  });
});

describe('a provider that never echoes the nonce (nonce: false)', () => {
  it('linkedin sends no nonce, signs in with client_secret_post, and still gets UserInfo', async () => {
    const { auth } = makeAuth({ providers: [linkedin({ id: 'strict', issuer: op.issuer, ...STRICT_CLIENTS.post })] });
    const b = new Browser(auth);
    const start = await b.start('strict');
    expect(start.searchParams.has('nonce')).toBe(false);
    expect(start.searchParams.get('code_challenge_method')).toBe('S256');
    expect((await b.app((await op.authorize(start, 'alice')).href)).headers.get('location')).toBe('/home');
    expect((await b.session())?.user).toMatchObject({ email: 'alice@example.com', name: 'Alice Strict' });
  });
});

describe('the userinfo and skipUserInfo options', () => {
  it('calls the configured userinfo endpoint instead of the discovered one', async () => {
    const proxy = await userinfoProxy();
    try {
      const { auth } = setup({ userinfo: proxy.url });
      const b = new Browser(auth);
      await signIn(b, 'strict', 'alice');
      expect(proxy.seen).toEqual([expect.stringMatching(/^application\/json/)]);
      expect((await b.session())?.user.email).toBe('alice@example.com');
    } finally {
      await proxy.close();
    }
  });

  it('skipUserInfo uses the ID token claims alone and makes no UserInfo request', async () => {
    const proxy = await userinfoProxy();
    try {
      const { auth } = setup({ userinfo: proxy.url, skipUserInfo: true });
      const b = new Browser(auth);
      expect((await signIn(b, 'strict', 'alice')).headers.get('location')).toBe('/home');
      expect(proxy.seen).toHaveLength(0);
      // This provider is strict, so the ID token alone has no email: the reason the default is to call UserInfo.
      expect((await b.session())?.user.email).toBeNull();
    } finally {
      await proxy.close();
    }
  });
});

describe('UserInfo failures', () => {
  it('a UserInfo sub other than the ID token sub (token substitution) fails with OAUTH_USERINFO_MISMATCH', async () => {
    const { auth, adapter } = setup();
    // Mallory signs in first; the kit stores her access token.
    await signIn(new Browser(auth), 'strict', 'mallory');
    const stolen = (await adapter.getAccount({ provider: 'strict', providerAccountId: 'mallory' }))!.access_token!;

    const b = new Browser(auth);
    op.rewriteNextTokenResponse((body) => ({ ...body, access_token: stolen }));
    const res = await signIn(b, 'strict', 'alice');
    expect(errorOf(res)).toBe('OAuthUserInfoMismatch');
    expect(await b.session()).toBeNull();
    expect(await adapter.getUserByAccount({ provider: 'strict', providerAccountId: 'alice' })).toBeNull();

    const json = new Browser(auth);
    op.rewriteNextTokenResponse((body) => ({ ...body, access_token: stolen }));
    const answer = await signIn(json, 'strict', 'alice', JSON_CLIENT);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: { code: 'OAUTH_USERINFO_MISMATCH' } });
  });

  it('a UserInfo endpoint answering 401 fails with OAUTH_USERINFO_FAILED, logs the endpoint, and creates no user', async () => {
    op.accounts.set('bob', { sub: 'bob', email: 'bob@example.com', email_verified: true, name: 'Bob' });
    op.userinfoRefused.add('bob');
    try {
      const { auth, adapter, warnings } = setup();
      const b = new Browser(auth);
      const res = await signIn(b, 'strict', 'bob');
      expect(res.status).toBe(303);
      expect(errorOf(res)).toBe('OAuthUserInfoFailed');
      expect(await b.session()).toBeNull();
      expect(await adapter.getUserByAccount({ provider: 'strict', providerAccountId: 'bob' })).toBeNull();
      expect(await adapter.getUserByEmail('bob@example.com')).toBeNull();
      const log = warnings.join('\n');
      expect(log).toContain(`${op.issuer}/me`);
      expect(log).toContain('HTTP 401');
      const token = /access_token=|Bearer [A-Za-z0-9_-]{20,}/;
      expect(log).not.toMatch(token);

      const answer = await signIn(new Browser(auth), 'strict', 'bob', JSON_CLIENT);
      expect(answer.status).toBe(502);
      expect(await answer.json()).toMatchObject({ error: { code: 'OAUTH_USERINFO_FAILED' } });
    } finally {
      op.userinfoRefused.delete('bob');
    }
  });

  it.each([
    ['a body that is not JSON', { status: 200, type: 'application/json', body: 'not json' }],
    ['a JSON array', { status: 200, type: 'application/json', body: '[]' }],
    ['a body without sub', { status: 200, type: 'application/json', body: '{"email":"x@example.com"}' }],
    ['a 500', { status: 500, type: 'text/plain', body: 'down' }],
    ['an unsigned JWT', { status: 200, type: 'application/jwt', body: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSJ9.' }],
  ])('%s fails with OAUTH_USERINFO_FAILED', async (_label, out) => {
    const proxy = await userinfoProxy(async () => out);
    try {
      const { auth, adapter } = setup({ userinfo: proxy.url });
      const b = new Browser(auth);
      expect(errorOf(await signIn(b, 'strict', 'alice'))).toBe('OAuthUserInfoFailed');
      expect(await adapter.getUserByAccount({ provider: 'strict', providerAccountId: 'alice' })).toBeNull();
    } finally {
      await proxy.close();
    }
  });

  it('an unreachable UserInfo endpoint fails with OAUTH_USERINFO_FAILED (network error)', async () => {
    const proxy = await userinfoProxy();
    await proxy.close();
    const { auth, warnings } = setup({ userinfo: proxy.url });
    expect(errorOf(await signIn(new Browser(auth), 'strict', 'alice'))).toBe('OAuthUserInfoFailed');
    expect(warnings.join('\n')).toMatch(/network error/);
  });
});

describe('discovery and key rotation', () => {
  it.each([
    ['JSON UserInfo', false],
    ['signed UserInfo', true],
  ])('a key rotation between two sign-ins is picked up at once (%s)', async (_label, signed) => {
    const discovery = vi.fn();
    const { auth, adapter, id } = setup({ signed });
    const counting = (res: Response) => (res.url.includes('/.well-known/') ? discovery() : undefined);
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (...args) => {
      const res = await realFetch(...args);
      counting(res);
      return res;
    });
    try {
      await signIn(new Browser(auth), id, 'alice');
      const first = await adapter.getAccount({ provider: id, providerAccountId: 'alice' });
      const before = decodeProtectedHeader(first!.id_token!).kid;
      expect(discovery).toHaveBeenCalledTimes(1);

      await op.rotateKeys();
      expect(op.kids()).not.toContain(before);
      const b = new Browser(auth);
      expect((await signIn(b, id, 'mallory')).headers.get('location')).toBe('/home');
      expect((await b.session())?.user).toMatchObject({ email: 'mallory@example.com', name: 'Mallory' });
      const second = await adapter.getAccount({ provider: id, providerAccountId: 'mallory' });
      expect(decodeProtectedHeader(second!.id_token!).kid).toBe(op.kids()[0]);
      // The metadata was loaded again once, for the unknown key.
      expect(discovery).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('the flow checks hold against the strict provider', () => {
  it('a replayed authorization code is refused', async () => {
    const { auth } = setup();
    const b = new Browser(auth);
    const back = await op.authorize(await b.start('strict'), 'alice');
    const flow = b.cookies.get('framework.oauth.strict')!;
    expect((await b.app(back.href)).headers.get('location')).toBe('/home');
    const replay = new Browser(auth);
    replay.cookies.set('framework.oauth.strict', flow);
    expect(errorOf(await replay.app(back.href))).toBe('OAuthCallbackError');
    expect(await replay.session()).toBeNull();
  });

  it('a wrong client secret is refused at the token endpoint', async () => {
    const provider = createOAuth2Provider({
      id: 'strict',
      name: 'Strict OP',
      issuer: op.issuer,
      clientId: STRICT_CLIENTS.plain.clientId,
      clientSecret: 'not-the-secret',
      profile: (claims) => ({ id: String(claims.sub) }),
    });
    const { auth } = makeAuth({ providers: [provider] });
    const b = new Browser(auth);
    expect(errorOf(await signIn(b, 'strict', 'alice'))).toBe('OAuthCallbackError');
    expect(await b.session()).toBeNull();
  });
});
