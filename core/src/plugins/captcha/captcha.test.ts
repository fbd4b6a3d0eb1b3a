/**
 * `captcha()` through `auth.handler`, against a local fake of the providers' verify endpoint (a real server on
 * port 0): the request each provider gets, refusals before the action runs, the chosen routes only, and a verify
 * endpoint that cannot be reached.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuth, createMemoryAdapter, type CreateAuthOptions } from '../../index.js';
import { ORIGIN, SECRET, TestClient } from '../../testing/fixtures.js';
import { captcha, type CaptchaOptions } from './index.js';
import { fakeVerifyServer, type FakeVerify } from './fake-verify.test-helpers.js';

let fake: FakeVerify;
beforeAll(async () => {
  fake = await fakeVerifyServer();
});
afterAll(() => fake.close());

const PASSWORD = 'correct horse battery';
const IP = '203.0.113.7';

function setup(options: Partial<CaptchaOptions> = {}, extra: Partial<CreateAuthOptions> = {}) {
  const adapter = createMemoryAdapter();
  const errors: string[] = [];
  const auth = createAuth({
    secret: SECRET,
    baseURL: ORIGIN,
    adapter,
    providers: [],
    logger: { error: (m) => void errors.push(m), warn: () => {} },
    emailAndPassword: { sendResetPassword: () => {} },
    plugins: [captcha({ provider: 'turnstile', secretKey: 'site-secret', verifyUrl: fake.url, ...options })],
    ...extra,
  });
  const client = new TestClient(auth);
  client.ip = IP;
  return { auth, adapter, client, errors };
}

const codeOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

describe('captcha() per provider', () => {
  it.each([
    ['turnstile', 'cf-turnstile-response'],
    ['hcaptcha', 'h-captcha-response'],
    ['recaptcha', 'g-recaptcha-response'],
  ] as const)(
    '%s: the widget field %s is verified form-encoded (secret, response, remoteip)',
    async (provider, field) => {
      const { client, adapter } = setup({ provider });
      const before = fake.calls.length;
      const res = await client.postForm('/auth/signup', {
        email: `${provider}@example.com`,
        password: PASSWORD,
        [field]: 'good',
      });
      expect(res.status).toBe(303);
      expect(await adapter.getUserByEmail(`${provider}@example.com`)).not.toBeNull();
      const [call] = fake.calls.slice(before);
      expect(call?.contentType).toBe('application/x-www-form-urlencoded');
      expect(call?.form).toStrictEqual({ secret: 'site-secret', response: 'good', remoteip: IP });
    },
  );

  it('hCaptcha gets the site key as `sitekey`', async () => {
    const { client } = setup({ provider: 'hcaptcha', siteKey: 'site-key' });
    const before = fake.calls.length;
    await client.postJson('/auth/signup', { email: 'h@example.com', password: PASSWORD, 'h-captcha-response': 'good' });
    expect(fake.calls.slice(before)[0]?.form.sitekey).toBe('site-key');
  });

  it('a JSON client may send the token as `captchaToken` or in `X-Captcha-Response`', async () => {
    const { client } = setup();
    const a = await client.postJson('/auth/signup', {
      email: 'a@example.com',
      password: PASSWORD,
      captchaToken: 'good',
    });
    expect(a.status).toBe(200);
    const b = await client.postJson(
      '/auth/signup',
      { email: 'b@example.com', password: PASSWORD },
      { 'x-captcha-response': 'good' },
    );
    expect(b.status).toBe(200);
  });
});

describe('captcha() refusals', () => {
  it('a sign-up without a token is refused (400 CAPTCHA_REQUIRED) before the action: no user, no verify call', async () => {
    const { client, adapter } = setup();
    const before = fake.calls.length;
    const res = await client.postJson('/auth/signup', { email: 'bot@example.com', password: PASSWORD });
    expect(res.status).toBe(400);
    expect(await codeOf(res)).toBe('CAPTCHA_REQUIRED');
    expect(await adapter.getUserByEmail('bot@example.com')).toBeNull();
    expect(fake.calls.length).toBe(before);
  });

  it('a token the provider refuses answers 403 CAPTCHA_FAILED and creates nothing; browsers get the error page', async () => {
    const { client, adapter } = setup();
    const res = await client.postJson('/auth/signup', {
      email: 'bot@example.com',
      password: PASSWORD,
      captchaToken: 'forged',
    });
    expect(res.status).toBe(403);
    expect(await codeOf(res)).toBe('CAPTCHA_FAILED');
    expect(await adapter.getUserByEmail('bot@example.com')).toBeNull();
    const page = await client.postForm('/auth/signup', { email: 'bot@example.com', password: PASSWORD });
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('a score below minScore fails; at or above it passes', async () => {
    const { client } = setup({ provider: 'recaptcha', minScore: 0.5 });
    const low = await client.postJson('/auth/signup', {
      email: 'low@example.com',
      password: PASSWORD,
      captchaToken: 'low',
    });
    expect(await codeOf(low)).toBe('CAPTCHA_FAILED');
    const high = await client.postJson('/auth/signup', {
      email: 'hi@example.com',
      password: PASSWORD,
      captchaToken: 'good',
    });
    expect(high.status).toBe(200);
  });

  it('a cross-site POST is refused by CSRF before the provider is asked', async () => {
    const { auth } = setup();
    const before = fake.calls.length;
    const res = await auth.handler(
      new Request(`${ORIGIN}/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', origin: 'https://evil.example' },
        body: JSON.stringify({ email: 'x@example.com', password: PASSWORD, captchaToken: 'good' }),
      }),
    );
    expect(res.status).toBe(403);
    expect(fake.calls.length).toBe(before);
  });

  it('runs before the route limiter: refused attempts spend no sign-in budget', async () => {
    const { client } = setup();
    for (let i = 0; i < 8; i++) {
      const res = await client.postJson('/auth/callback/credentials', { email: 'ada@example.com', password: 'x' });
      expect(await codeOf(res)).toBe('CAPTCHA_REQUIRED');
    }
    const res = await client.postJson('/auth/callback/credentials', {
      email: 'ada@example.com',
      password: 'wrong',
      captchaToken: 'good',
    });
    expect(res.status).toBe(401);
  });

  it('a verify endpoint that cannot be reached refuses (503 CAPTCHA_UNAVAILABLE) and logs why', async () => {
    const closed = await fakeVerifyServer();
    await closed.close();
    const { client, adapter, errors } = setup({ verifyUrl: closed.url });
    const res = await client.postJson('/auth/signup', {
      email: 'x@example.com',
      password: PASSWORD,
      captchaToken: 'good',
    });
    expect(res.status).toBe(503);
    expect(await codeOf(res)).toBe('CAPTCHA_UNAVAILABLE');
    expect(await adapter.getUserByEmail('x@example.com')).toBeNull();
    expect(errors.some((e) => e.startsWith('[captcha] turnstile verification failed'))).toBe(true);
  });
});

describe('captcha() routes', () => {
  it('guards sign-up, the credentials sign-in and forgot password by default, and nothing else', async () => {
    const { client } = setup();
    for (const path of [
      '/auth/signup',
      '/auth/signin/credentials',
      '/auth/callback/credentials',
      '/auth/password/forgot',
    ])
      expect(await codeOf(await client.postJson(path, { email: 'ada@example.com', password: PASSWORD }))).toBe(
        'CAPTCHA_REQUIRED',
      );
    expect((await client.postJson('/auth/signout', {})).status).toBe(200);
    expect((await client.request('/auth/signup', { headers: { accept: 'text/html' } })).status).toBe(200);
  });

  it('guards only the routes it is given, by template or concrete path', async () => {
    const { client } = setup({ routes: ['/password/forgot', '/signin/:provider'] });
    const signUp = await client.postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD });
    expect(signUp.status).toBe(200);
    const forgot = await client.postJson('/auth/password/forgot', { email: 'ada@example.com' });
    expect(await codeOf(forgot)).toBe('CAPTCHA_REQUIRED');
    const other = await client.postJson('/auth/signin/anything', {});
    expect(await codeOf(other)).toBe('CAPTCHA_REQUIRED');
  });

  it('covers auth.api calls too (server code forwards the token)', async () => {
    const { auth, adapter } = setup();
    await expect(
      auth.api.signUpEmail({ email: 'api@example.com', password: PASSWORD }, { ip: IP }),
    ).rejects.toMatchObject({
      code: 'CAPTCHA_REQUIRED',
    });
    await auth.api.signUpEmail({ email: 'api@example.com', password: PASSWORD, captchaToken: 'good' } as never, {
      ip: IP,
    });
    expect(await adapter.getUserByEmail('api@example.com')).not.toBeNull();
  });

  it('refuses bad options with INVALID_CONFIG', () => {
    for (const bad of [
      { provider: 'other' },
      { secretKey: '' },
      { routes: ['signup'] },
      { verifyUrl: 'not a url' },
      { minScore: 2 },
      { timeout: 0 },
    ])
      expect(() => captcha({ provider: 'turnstile', secretKey: 's', ...bad } as CaptchaOptions)).toThrow(
        expect.objectContaining({ code: 'INVALID_CONFIG' }),
      );
  });

  it('refuses, at createAuth, a given route that nothing serves (a typo would leave the real route unguarded)', () => {
    for (const typo of ['/sign-up', '/password/forgotten', '/signin/credentials/extra', '/email-otp/send']) {
      expect(() => setup({ routes: ['/signup', typo] }), typo).toThrow(
        expect.objectContaining({ code: 'INVALID_CONFIG', message: expect.stringContaining(typo) }),
      );
    }
    // Templates and the concrete paths they serve are both accepted; the defaults need no check.
    expect(() =>
      setup({ routes: ['/signup', '/signin/:provider', '/signin/credentials', '/callback/:provider'] }),
    ).not.toThrow();
    expect(() => setup()).not.toThrow();
  });
});
