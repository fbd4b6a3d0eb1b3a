/**
 * `twoFactor()` and the account pre-hijacking defence: a first proof of the email (a password-reset link, a magic
 * link) removes the second factors set while the email was unverified. So enrolment needs a verified email, and
 * mailbox access alone never removes the second factor of a user who enrolled. Both orders: verify, enrol, then a
 * reset or a magic link (the code is still asked); enrol while unverified (refused).
 */
import * as OTPAuth from 'otpauth';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAuth } from '../../auth.js';
import { passwordAccounts } from '../../password-accounts.js';
import { credentials } from '../../providers/credentials.js';
import { email } from '../../providers/email.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import { EMAIL, PASSWORD, SECRET, TestClient } from '../../testing/fixtures.js';
import { twoFactor } from './plugin.js';
import { createMemoryTwoFactorStorage } from './storage/memory.js';

afterEach(() => vi.useRealTimers());

const T0 = Date.UTC(2026, 10, 24, 12, 0, 0);
const NEW_PASSWORD = 'a brand new password';

async function setup() {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
  const adapter = createMemoryAdapter();
  await adapter.migrate();
  const passwords = passwordAccounts(adapter);
  const user = await passwords.register({ email: EMAIL, password: PASSWORD, name: 'Ada' });
  const links: string[] = [];
  const resets: string[] = [];
  const storage = createMemoryTwoFactorStorage();
  const auth = createAuth({
    session: { strategy: 'database' },
    secret: SECRET,
    adapter,
    providers: [
      credentials({
        credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
        authorize: passwords.authorize,
      }),
      email({ from: 'login@app.test', sendVerificationRequest: async (p) => void links.push(p.url) }),
    ],
    emailAndPassword: { sendResetPassword: (mail) => void resets.push(mail.url) },
    plugins: [twoFactor({ storage })],
    rateLimit: { login: false },
    logger: { error: () => {}, warn: () => {} },
  });
  const client = () => new TestClient(auth);
  const lastOf = async (list: string[]) => {
    await new Promise((r) => setTimeout(r, 0)); // mails are sent without being awaited
    return new URL(list.at(-1)!);
  };
  /** Requests a magic link and opens it as a person does (the page, then its button). */
  const magicLink = async (c: TestClient) => {
    expect((await c.postJson('/auth/signin/email', { email: EMAIL })).status).toBe(200);
    const link = await lastOf(links);
    const page = await (await c.request(link.pathname + link.search)).text();
    const fields = Object.fromEntries(
      [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]),
    );
    return c.postJson('/auth/callback/email', fields);
  };
  /** A password reset through the emailed link, by someone who reads the mailbox and nothing more. */
  const resetPassword = async () => {
    expect((await client().postJson('/auth/password/forgot', { email: EMAIL })).status).toBe(200);
    const token = (await lastOf(resets)).searchParams.get('token')!;
    return client().postJson('/auth/password/reset', { token, password: NEW_PASSWORD });
  };
  return { auth, adapter, storage, userId: user.id, client, magicLink, resetPassword };
}
type Env = Awaited<ReturnType<typeof setup>>;

const errorCode = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;

/** Enrols and confirms from a signed-in client; returns the authenticator. */
async function enrol(env: Env, c: TestClient) {
  const res = await c.postJson('/auth/two-factor/enable', { password: PASSWORD });
  expect(res.status).toBe(200);
  const totp = OTPAuth.URI.parse(((await res.json()) as { totpURI: string }).totpURI) as OTPAuth.TOTP;
  const confirm = await c.postJson('/auth/two-factor/confirm', { code: totp.generate({ timestamp: Date.now() }) });
  expect(confirm.status).toBe(200);
  expect((await env.storage.get(env.userId))?.enabled).toBe(true);
  return totp;
}

/** The email verified (as its verification link does), then a password sign-in. */
async function verifiedAndSignedIn(env: Env) {
  await env.adapter.updateUser(env.userId, { emailVerified: new Date() });
  const c = env.client();
  expect((await c.signIn()).status).toBe(200);
  return c;
}

async function expectChallenged(res: Response) {
  expect(res.status).toBe(401);
  expect(await errorCode(res)).toBe('TWO_FACTOR_REQUIRED');
}

describe('enrolment needs a verified email', () => {
  it('refuses enable (403 EMAIL_NOT_VERIFIED) while the email is unverified, so a reset or magic link has nothing to remove', async () => {
    const env = await setup();
    const c = env.client();
    expect((await c.signIn()).status).toBe(200);
    const res = await c.postJson('/auth/two-factor/enable', { password: PASSWORD });
    expect(res.status).toBe(403);
    expect(await errorCode(res)).toBe('EMAIL_NOT_VERIFIED');
    expect(await env.storage.get(env.userId)).toBeNull();
    // Browsers get the settings page again with the message.
    const form = await c.postForm('/auth/two-factor/enable', { password: PASSWORD });
    expect(form.status).toBe(403);
    expect(await form.text()).toContain('Verify your email address');
    // The attack the rule closes: the mailbox alone (a reset) never leaves a second factor behind to bypass.
    expect((await env.resetPassword()).status).toBe(200);
    expect(await env.storage.get(env.userId)).toBeNull();
  });

  it('refuses to confirm a pending enrolment while the email is unverified (one started before the rule)', async () => {
    const env = await setup();
    const c = await verifiedAndSignedIn(env);
    const started = await c.postJson('/auth/two-factor/enable', { password: PASSWORD });
    const totp = OTPAuth.URI.parse(((await started.json()) as { totpURI: string }).totpURI) as OTPAuth.TOTP;
    await env.adapter.updateUser(env.userId, { emailVerified: null });
    const res = await c.postJson('/auth/two-factor/confirm', { code: totp.generate({ timestamp: Date.now() }) });
    expect(res.status).toBe(403);
    expect(await errorCode(res)).toBe('EMAIL_NOT_VERIFIED');
    expect((await env.storage.get(env.userId))?.enabled).toBe(false);
  });
});

describe('a verified user who enrolled keeps the second factor', () => {
  it('verify, enrol, then a password reset: the next sign-in still asks for the code', async () => {
    const env = await setup();
    const c = await verifiedAndSignedIn(env);
    await enrol(env, c);
    expect((await env.resetPassword()).status).toBe(200);
    expect((await env.storage.get(env.userId))?.enabled).toBe(true);
    await expectChallenged(await env.client().signIn(EMAIL, NEW_PASSWORD));
  });

  it('verify, enrol, then a magic link: the link and the next password sign-in both ask for the code', async () => {
    const env = await setup();
    const c = await verifiedAndSignedIn(env);
    await enrol(env, c);
    await expectChallenged(await env.magicLink(env.client()));
    expect((await env.storage.get(env.userId))?.enabled).toBe(true);
    await expectChallenged(await env.client().signIn());
  });

  it('an enrolment stored while the email was unverified (before the rule, or by a pre-hijacker) still goes on the first proof', async () => {
    const env = await setup();
    await env.storage.put({
      userId: env.userId,
      secret: 'enc:v1:legacy',
      enabled: true,
      lastUsedStep: null,
      createdAt: new Date(),
      enabledAt: new Date(),
    });
    await expectChallenged(await env.client().signIn());
    expect((await env.magicLink(env.client())).status).toBe(200);
    expect(await env.storage.get(env.userId)).toBeNull();
  });
});
