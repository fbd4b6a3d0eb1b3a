/**
 * `lastLoginMethod()` through `auth.handler` with a cookie jar: each sign-in method sets the cookie to its name, the
 * default sign-in page marks that method, a forged value is ignored (never shown), and `storeInDatabase` writes the
 * user field.
 */
import { describe, expect, it, vi } from 'vitest';
import type { CreateAuthOptions } from '../../auth.js';
import type { RouteContext, SignInSubject } from '../../contract/types.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import { makeFixture, type TestClient } from '../../testing/fixtures.js';
import { emailOTP } from '../email-otp/index.js';
import type { EmailOtpMail } from '../email-otp/index.js';
import { phoneNumber, type PhoneOtpMessage } from '../phone-number/index.js';
import { username } from '../username/index.js';
import { isLastLoginMethod, methodOf } from './methods.js';
import { LAST_LOGIN_METHOD_COOKIE, lastLoginMethod, lastLoginMethodField } from './plugin.js';

const COOKIE = LAST_LOGIN_METHOD_COOKIE;

async function setup(overrides: Partial<CreateAuthOptions> = {}, options = {}) {
  const mail: EmailOtpMail[] = [];
  const texts: PhoneOtpMessage[] = [];
  const f = await makeFixture('database', {
    plugins: [
      emailOTP({ sendVerificationOTP: (m) => void mail.push(m) }),
      phoneNumber({ sendOTP: (m) => void texts.push(m) }),
      lastLoginMethod(options),
    ],
    rateLimit: { login: false },
    ...overrides,
  });
  return { ...f, mail, texts };
}

const page = async (c: TestClient, cookie?: string) =>
  (
    await c.request('/auth/signin', {
      headers: { accept: 'text/html', ...(cookie ? { cookie: `${COOKIE}=${cookie}` } : {}) },
    })
  ).text();
/** The form (its action) right after the "Last used" marker, or null when the page has no marker. */
const marked = (html: string) =>
  /<p class="last-used"><strong>Last used<\/strong><\/p><form method="post" action="([^"]*)"/.exec(html)?.[1] ??
  (html.includes('Last used') ? 'somewhere else' : null);

describe('lastLoginMethod cookie', () => {
  it('credentials: set on sign-in (SameSite=Lax, long-lived, readable by scripts), and the page marks the form', async () => {
    const f = await setup();
    const c = f.client();
    expect(marked(await page(c))).toBeNull();
    const res = await c.signIn();
    const line = res.headers.getSetCookie().find((l) => l.startsWith(`${COOKIE}=`))!;
    expect(line).toMatch(/^framework\.last-login-method=credentials;/);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).toMatch(/Max-Age=34560000/);
    expect(line).toMatch(/Path=\//);
    expect(line).not.toMatch(/HttpOnly/i);
    expect(c.cookies.get(COOKIE)).toBe('credentials');
    expect(marked(await page(c))).toBe('/auth/callback/credentials');
  });

  it('email-otp and phone-number: set to their names, and the page marks their forms', async () => {
    const f = await setup();
    const c = f.client();
    await c.postJson('/auth/email-otp/send', { email: 'grace@example.com' });
    await vi.waitFor(() => expect(f.mail).toHaveLength(1));
    await c.postJson('/auth/email-otp/sign-in', { email: 'grace@example.com', code: f.mail[0]!.otp });
    expect(c.cookies.get(COOKIE)).toBe('email-otp');
    expect(marked(await page(c))).toBe('/auth/email-otp/send');

    await c.postJson('/auth/phone-number/send-otp', { phoneNumber: '+442079460018' });
    await c.postJson('/auth/phone-number/sign-in', { phoneNumber: '+442079460018', code: f.texts[0]!.code });
    expect(c.cookies.get(COOKIE)).toBe('phone-number');
    const html = await page(c);
    expect(marked(html)).toBe('/auth/phone-number/send-otp');
    expect(html.match(/Last used/g)).toHaveLength(1);
  });

  it('username: signing in on the username route sets username, and the page marks its form', async () => {
    const f = await makeFixture('database', {
      adapter: createMemoryAdapter(),
      providers: [],
      emailAndPassword: {},
      plugins: [username(), lastLoginMethod()],
      rateLimit: { login: false },
    });
    await f.auth.migrate();
    const c = f.client();
    const signUp = await c.postJson('/auth/signup', {
      email: 'grace@example.com',
      password: 'analytical-engine',
      username: 'grace',
    });
    expect(signUp.status).toBe(200);
    expect(c.cookies.get(COOKIE)).toBe('credentials');
    await c.postJson('/auth/username/sign-in', { username: 'grace', password: 'analytical-engine' });
    expect(c.cookies.get(COOKIE)).toBe('username');
    expect(marked(await page(c))).toBe('/auth/username/sign-in');
  });

  it('a failed sign-in sets nothing', async () => {
    const f = await setup();
    const c = f.client();
    const res = await c.signIn('ada@example.com', 'wrong password');
    expect(res.status).toBe(401);
    expect(c.cookies.has(COOKIE)).toBe(false);
  });

  it('ignores a forged value outside the list: no marker, nothing of it on the page', async () => {
    const f = await setup();
    const c = f.client();
    for (const forged of [
      encodeURIComponent('<script>alert(1)</script>'),
      encodeURIComponent('oauth:"><img src=x onerror=alert(1)>'),
      'oauth:',
      'Credentials',
      'credentials%00',
      encodeURIComponent('credentials '),
      'admin',
    ]) {
      const html = await page(c, forged);
      expect(marked(html)).toBeNull();
      expect(html).not.toContain('<script>alert');
      expect(html).not.toContain('onerror');
      const ext = (f.auth.extensions as unknown as { lastLoginMethod: { read(r: Request): unknown } }).lastLoginMethod;
      expect(ext.read(new Request('http://app.test/', { headers: { cookie: `${COOKIE}=${forged}` } }))).toBeNull();
    }
    expect(marked(await page(c, 'passkey'))).toBeNull(); // a listed method that is not on this page
    expect(marked(await page(c, 'email-otp'))).toBe('/auth/email-otp/send');
  });
});

describe('lastLoginMethod method names', () => {
  const ctx = (route?: string) => ({ auth: { config: { basePath: '/auth' } }, route }) as unknown as RouteContext;
  const subject = (account: SignInSubject['account']): SignInSubject => ({
    user: { id: 'u1' },
    account,
    isNewUser: false,
    callbackUrl: '/',
  });
  const acc = (provider: string, type: NonNullable<SignInSubject['account']>['type']) => ({
    provider,
    providerAccountId: 'x',
    type,
  });

  it('names every method of the list', () => {
    expect(methodOf(ctx('/auth/callback/:provider'), subject(acc('credentials', 'credentials')))).toBe('credentials');
    expect(methodOf(ctx('/auth/username/sign-in'), subject(acc('credentials', 'credentials')))).toBe('username');
    expect(methodOf(ctx(), subject(acc('github', 'oauth')))).toBe('oauth:github');
    expect(methodOf(ctx(), subject(acc('okta', 'oidc')))).toBe('oauth:okta');
    expect(methodOf(ctx(), subject(acc('passkey', 'webauthn')))).toBe('passkey');
    expect(methodOf(ctx(), subject(acc('email', 'email')))).toBe('magic-link');
    expect(methodOf(ctx(), subject(acc('email-otp', 'email')))).toBe('email-otp');
    expect(methodOf(ctx(), subject(acc('phone-number', 'credentials')))).toBe('phone-number');
    expect(methodOf(ctx(), subject(null))).toBeNull();
    expect(methodOf(ctx(), subject(acc('bad id<', 'oauth')))).toBeNull();
  });

  it('accepts only the fixed names and oauth:<safe id>', () => {
    for (const ok of ['credentials', 'magic-link', 'oauth:github', 'oauth:my_idp.eu-1'])
      expect(isLastLoginMethod(ok)).toBe(true);
    for (const bad of [
      '',
      'oauth:',
      'oauth:a b',
      'oauth:<x>',
      'OAUTH:github',
      'password',
      `oauth:${'a'.repeat(65)}`,
      42,
    ])
      expect(isLastLoginMethod(bad)).toBe(false);
  });
});

describe('lastLoginMethod storeInDatabase', () => {
  it('writes the user field lastLoginMethod on every sign-in', async () => {
    const f = await setup(
      { adapter: createMemoryAdapter(), user: { additionalFields: { ...lastLoginMethodField } } },
      { storeInDatabase: true },
    );
    const c = f.client();
    await c.signIn();
    expect(((await f.adapter.getUser(f.userId)) as unknown as { lastLoginMethod: string }).lastLoginMethod).toBe(
      'credentials',
    );
  });

  it('refuses to start without the field', async () => {
    await expect(setup({}, { storeInDatabase: true })).rejects.toThrow(/lastLoginMethodField/);
    expect(() => lastLoginMethod({ storeInDatabase: 'yes' as never })).toThrow(/storeInDatabase must be a boolean/);
  });
});
