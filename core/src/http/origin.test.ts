import { afterEach, describe, expect, it } from 'vitest';
import { createAuth, type CreateAuthOptions } from '../auth.js';
import { email, type EmailParams } from '../providers/email.js';
import { createOAuth2Provider } from '../providers/oauth/create.js';
import { passkey } from '../plugins/passkey/provider.js';
import { createMemoryAdapter } from '../storage/memory.js';
import { AuthConfigError } from '../errors.js';

const SECRET = 'origin-test-secret-origin-test-secret-0123';
const quiet = { error: () => {}, warn: () => {} };

function setup(overrides: Partial<CreateAuthOptions> = {}) {
  const sent: EmailParams[] = [];
  const auth = createAuth({
    secret: SECRET,
    adapter: createMemoryAdapter(),
    providers: [
      email({ from: 'login@app.test', sendVerificationRequest: async (p) => void sent.push(p) }),
      createOAuth2Provider({
        id: 'acme',
        name: 'Acme',
        clientId: 'id',
        clientSecret: 'secret',
        authorization: 'https://id.acme.test/authorize',
        token: 'https://id.acme.test/token',
        userinfo: 'https://id.acme.test/me',
        profile: (p) => ({ id: String(p.id) }),
      }),
    ],
    logger: quiet,
    ...overrides,
  });
  return { auth, sent };
}

/** A client that talks to the handler as `origin` (the Host it claims), with no Origin header, as a script would. */
async function asHost(auth: ReturnType<typeof setup>['auth'], origin: string) {
  const csrf = await auth.handler(new Request(`${origin}/auth/csrf`));
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return (path: string, body: Record<string, string>) =>
    auth.handler(
      new Request(`${origin}${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ csrfToken, ...body }),
      }),
    );
}

const FORGED = [
  'http://evil.example',
  'https://app.test.evil.example',
  'http://127.0.0.1:3000',
  'http://app.test:8080',
];

describe('links are built from baseURL, never from a forged Host', () => {
  it.each(FORGED)('magic link, OAuth redirect_uri and /providers ignore Host %s', async (host) => {
    const { auth, sent } = setup({ baseURL: 'https://app.test' });
    const post = await asHost(auth, host);
    expect((await post('/auth/signin/email', { email: 'victim@example.com' })).status).toBe(200);
    expect(new URL(sent[0]!.url).origin).toBe('https://app.test');

    const start = (await (await post('/auth/signin/acme', {})).json()) as { url: string };
    const redirectUri = new URL(start.url).searchParams.get('redirect_uri')!;
    expect(new URL(redirectUri).origin).toBe('https://app.test');

    const providers = (await (await auth.handler(new Request(`${host}/auth/providers`))).json()) as Record<
      string,
      { signinUrl: string; callbackUrl: string }
    >;
    for (const p of Object.values(providers)) {
      expect(new URL(p.signinUrl).origin).toBe('https://app.test');
      expect(new URL(p.callbackUrl).origin).toBe('https://app.test');
    }
  });

  it('a Host naming a trusted origin does not shape links either (tokens go to baseURL only)', async () => {
    const { auth, sent } = setup({ baseURL: 'https://app.test', trustedOrigins: ['https://partner.example'] });
    const post = await asHost(auth, 'https://partner.example');
    await post('/auth/signin/email', { email: 'a@example.com' });
    expect(new URL(sent[0]!.url).origin).toBe('https://app.test');
  });

  it('relative callback URLs resolve against baseURL, and browsers posting from baseURL pass the origin check behind a proxy', async () => {
    const { auth } = setup({ baseURL: 'https://app.test' });
    const csrf = await auth.handler(new Request('http://127.0.0.1:3000/auth/csrf'));
    const cookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const res = await auth.handler(
      new Request('http://127.0.0.1:3000/auth/signin/acme', {
        method: 'POST',
        headers: { cookie, origin: 'https://app.test', 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ csrfToken }),
      }),
    );
    expect(res.status).toBe(200);
    const forged = await auth.handler(
      new Request('http://127.0.0.1:3000/auth/signin/acme', {
        method: 'POST',
        headers: {
          cookie,
          origin: 'http://127.0.0.1:3000',
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify({ csrfToken }),
      }),
    );
    expect(forged.status).toBe(403);
  });

  it('reads AUTH_URL from env, and baseURL wins over it', () => {
    expect(setup({ env: { AUTH_URL: 'https://env.app.test/ignored/path' } }).auth).toBeDefined();
    const { auth } = setup({ env: { AUTH_URL: 'https://env.app.test' }, baseURL: 'https://opt.app.test' });
    return auth.handler(new Request('http://evil.example/auth/providers')).then(async (res) => {
      const json = (await res.json()) as Record<string, { signinUrl: string }>;
      expect(new URL(json.email!.signinUrl).origin).toBe('https://opt.app.test');
    });
  });

  it('refuses a malformed baseURL', () => {
    for (const bad of ['app.test', 'javascript:alert(1)', 'ftp://app.test']) {
      expect(() => setup({ baseURL: bad })).toThrow(/baseURL/);
    }
  });

  it('fills the passkey origin and rpId from baseURL, and requires one of them', async () => {
    const ok = createAuth({
      secret: SECRET,
      adapter: createMemoryAdapter(),
      baseURL: 'https://app.test',
      providers: [passkey({ rpName: 'App', allowSignUp: true })],
      logger: quiet,
    });
    const csrf = await ok.handler(new Request('https://app.test/auth/csrf'));
    const cookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const res = await ok.handler(
      new Request('https://app.test/auth/passkey/register/options', {
        method: 'POST',
        headers: { cookie, origin: 'https://app.test', 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ csrfToken, email: 'new@example.com' }),
      }),
    );
    expect(((await res.json()) as { rp: { id: string } }).rp.id).toBe('app.test');
    expect(() =>
      createAuth({
        secret: SECRET,
        adapter: createMemoryAdapter(),
        providers: [passkey({ rpName: 'App' })],
        logger: quiet,
      }),
    ).toThrow(/origin is required/);
  });
});

describe('in production', () => {
  const previous = process.env.NODE_ENV;
  afterEach(() => {
    process.env.NODE_ENV = previous;
  });

  it('refuses to start without baseURL or trustHost, naming both', () => {
    process.env.NODE_ENV = 'production';
    let error: unknown;
    try {
      setup({ env: {} });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AuthConfigError);
    expect((error as AuthConfigError).code).toBe('INVALID_CONFIG');
    expect((error as Error).message).toMatch(/baseURL.*AUTH_URL.*trustHost/s);
  });

  it('reads production from createAuth({ env }) too, as on Workers, Bun or Deno', () => {
    process.env.NODE_ENV = 'test';
    expect(() => setup({ env: { NODE_ENV: 'production' } })).toThrow(/baseURL/);
    expect(() => setup({ env: { NODE_ENV: 'production', AUTH_URL: 'https://app.test' } })).not.toThrow();
    expect(
      setup({ env: { NODE_ENV: 'production', AUTH_URL: 'https://app.test' } }).auth.config.cookies.sessionToken.options
        .secure,
    ).toBe(true);
  });

  it('starts with baseURL, AUTH_URL, trustHost or AUTH_TRUST_HOST', () => {
    process.env.NODE_ENV = 'production';
    expect(() => setup({ env: {}, baseURL: 'https://app.test' })).not.toThrow();
    expect(() => setup({ env: { AUTH_URL: 'https://app.test' } })).not.toThrow();
    expect(() => setup({ env: {}, trustHost: true })).not.toThrow();
    expect(() => setup({ env: { AUTH_TRUST_HOST: 'true' } })).not.toThrow();
  });

  it('with trustHost, links follow the request origin (the proxy is trusted to fix Host)', async () => {
    process.env.NODE_ENV = 'production';
    const { auth, sent } = setup({ env: {}, trustHost: true });
    const post = await asHost(auth, 'https://proxied.app.test');
    await post('/auth/signin/email', { email: 'a@example.com' });
    expect(new URL(sent[0]!.url).origin).toBe('https://proxied.app.test');
  });
});
