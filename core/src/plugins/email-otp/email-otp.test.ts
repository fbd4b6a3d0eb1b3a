/**
 * `emailOTP()` end to end through `auth.handler` with a cookie jar: sign-in (and sign-up), email verification and
 * password reset with a code, and the attacks on codes (replay, guessing past the tries, expiry, a code for another
 * purpose or address), the neutral answers and the send limits.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CreateAuthOptions } from '../../auth.js';
import type { AuthPlugin } from '../../contract/types.js';
import { badRequest } from '../../errors.js';
import { createEmailVerificationRateLimiter, createFixedWindowStorage } from '../../rate-limit.js';
import { EMAIL, PASSWORD, makeFixture, type TestClient } from '../../testing/fixtures.js';
import { createMemoryOtpStorage, type OtpStorage } from '../otp/index.js';
import type { EmailOtpMail, EmailOtpOptions } from './options.js';
import { emailOTP } from './plugin.js';

afterEach(() => vi.useRealTimers());

async function setup(options: Partial<EmailOtpOptions> = {}, overrides: Partial<CreateAuthOptions> = {}) {
  const mail: EmailOtpMail[] = [];
  const storage: OtpStorage = options.storage ?? createMemoryOtpStorage();
  const f = await makeFixture('database', {
    plugins: [emailOTP({ storage, sendVerificationOTP: (m) => void mail.push(m), ...options })],
    rateLimit: { login: false },
    ...overrides,
  });
  let n = 0;
  const client = () => {
    const c = f.client();
    c.ip = `192.0.2.${++n}`;
    return c;
  };
  /** The last code mailed to `email` (waits for a mail that is sent without being awaited). */
  const lastCode = async (email = EMAIL, type = 'sign-in') => {
    await vi.waitFor(() => expect(mail.some((m) => m.email === email && m.type === type)).toBe(true));
    return mail.filter((m) => m.email === email && m.type === type).at(-1)!.otp;
  };
  return { ...f, client, mail, storage, lastCode };
}

const errorCode = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;
const send = (c: TestClient, email: string, type = 'sign-in') => c.postJson('/auth/email-otp/send', { email, type });
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('emailOTP sign-in', () => {
  it('signs an existing user in with the mailed code, through completeSignIn, and marks the email verified', async () => {
    const f = await setup();
    const c = f.client();
    const sent = await send(c, ' Ada@Example.com ');
    expect(sent.status).toBe(200);
    expect(await sent.json()).toStrictEqual({ ok: true });
    const code = await f.lastCode();
    expect(code).toMatch(/^[0-9]{6}$/);
    expect(f.mail[0]!.expiresAt.getTime() - Date.now()).toBeGreaterThan(290_000);
    const res = await c.postJson('/auth/email-otp/sign-in', { email: EMAIL, code, callbackUrl: '/home' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, url: '/home' });
    expect((await c.session())?.user.id).toBe(f.userId);
    expect((await f.adapter.getUser(f.userId))?.emailVerified).toBeInstanceOf(Date);
    expect(await f.adapter.getAccount({ provider: 'email-otp', providerAccountId: EMAIL })).not.toBeNull();
  });

  it('creates the account for an unknown address while sign-up is on, and not with signUp: false', async () => {
    const f = await setup();
    const c = f.client();
    await send(c, 'grace@example.com');
    const res = await c.postJson('/auth/email-otp/sign-in', {
      email: 'grace@example.com',
      code: await f.lastCode('grace@example.com'),
    });
    expect(res.status).toBe(200);
    expect((await c.session())?.user.email).toBe('grace@example.com');

    const closed = await setup({ signUp: false });
    const d = closed.client();
    const neutral = await send(d, 'grace@example.com');
    expect(neutral.status).toBe(200);
    expect(await neutral.json()).toStrictEqual({ ok: true });
    await send(d, EMAIL);
    await closed.lastCode(EMAIL);
    expect(closed.mail.map((m) => m.email)).toStrictEqual([EMAIL]);
    expect(await closed.adapter.getUserByEmail('grace@example.com')).toBeNull();
  });

  it('a first proof of the address removes the password set while it was unverified (pre-hijacking)', async () => {
    const f = await setup();
    expect((await f.adapter.getUser(f.userId))?.emailVerified ?? null).toBeNull();
    const squatter = f.client();
    expect((await squatter.signIn()).status).toBe(200);
    const owner = f.client();
    await send(owner, EMAIL);
    expect((await owner.postJson('/auth/email-otp/sign-in', { email: EMAIL, code: await f.lastCode() })).status).toBe(
      200,
    );
    expect(await squatter.session()).toBeNull();
    expect((await f.client().signIn(EMAIL, PASSWORD)).status).toBe(401);
    expect((await owner.session())?.user.id).toBe(f.userId);
  });

  it('refuses a replayed code', async () => {
    const f = await setup();
    const c = f.client();
    await send(c, EMAIL);
    const code = await f.lastCode();
    expect((await c.postJson('/auth/email-otp/sign-in', { email: EMAIL, code })).status).toBe(200);
    const replay = await f.client().postJson('/auth/email-otp/sign-in', { email: EMAIL, code });
    expect(replay.status).toBe(401);
    expect(await errorCode(replay)).toBe('OTP_INVALID');
  });

  it('allows three tries per code: the third wrong one ends it, even for the right code after', async () => {
    const f = await setup();
    const c = f.client();
    await send(c, EMAIL);
    const code = await f.lastCode();
    for (const expected of ['OTP_INVALID', 'OTP_INVALID', 'OTP_TOO_MANY_ATTEMPTS']) {
      const res = await c.postJson('/auth/email-otp/sign-in', { email: EMAIL, code: wrong(code) });
      expect(await errorCode(res)).toBe(expected);
    }
    const late = await c.postJson('/auth/email-otp/sign-in', { email: EMAIL, code });
    expect(late.status).toBe(401);
    expect(await c.session()).toBeNull();
  });

  it('accepts the right code on the last try', async () => {
    const f = await setup();
    const c = f.client();
    await send(c, EMAIL);
    const code = await f.lastCode();
    await c.postJson('/auth/email-otp/sign-in', { email: EMAIL, code: wrong(code) });
    await c.postJson('/auth/email-otp/sign-in', { email: EMAIL, code: wrong(code) });
    expect((await c.postJson('/auth/email-otp/sign-in', { email: EMAIL, code: ` ${code} ` })).status).toBe(200);
  });

  it('refuses an expired code (default 5 minutes)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const f = await setup();
    const c = f.client();
    await send(c, EMAIL);
    const code = await f.lastCode();
    vi.setSystemTime(Date.now() + 300_000);
    const res = await c.postJson('/auth/email-otp/sign-in', { email: EMAIL, code });
    expect(await errorCode(res)).toBe('OTP_INVALID');
  });

  it('refuses a code sent for another purpose or another address, and an older code once a new one went out', async () => {
    const f = await setup();
    const c = f.client();
    await send(c, EMAIL, 'forget-password');
    const resetCode = await f.lastCode(EMAIL, 'forget-password');
    expect(await errorCode(await c.postJson('/auth/email-otp/sign-in', { email: EMAIL, code: resetCode }))).toBe(
      'OTP_INVALID',
    );
    await send(c, 'grace@example.com');
    const graceCode = await f.lastCode('grace@example.com');
    expect(await errorCode(await c.postJson('/auth/email-otp/sign-in', { email: EMAIL, code: graceCode }))).toBe(
      'OTP_INVALID',
    );
    await send(c, EMAIL);
    const first = await f.lastCode();
    await send(c, EMAIL);
    const second = f.mail.at(-1)!.otp;
    if (first !== second)
      expect(await errorCode(await c.postJson('/auth/email-otp/sign-in', { email: EMAIL, code: first }))).toBe(
        'OTP_INVALID',
      );
    expect((await c.postJson('/auth/email-otp/sign-in', { email: EMAIL, code: second })).status).toBe(200);
  });

  it('stores no code: only a keyed hash, under a key that names no address', async () => {
    const puts: { id: string; codeHash: string }[] = [];
    const inner = createMemoryOtpStorage();
    const f = await setup({ storage: { ...inner, put: (r) => (puts.push(r), inner.put(r)) } });
    await send(f.client(), EMAIL);
    const code = await f.lastCode();
    expect(puts).toHaveLength(1);
    expect(puts[0]!.codeHash).toMatch(/^[0-9a-f]{64}$/);
    // Hex digests may hold any short run of hex letters or digits by chance: look for what hex cannot spell.
    expect(puts[0]!.codeHash).not.toBe(code);
    expect(Object.values(puts[0]!).filter((v) => typeof v === 'string' && !/^[0-9a-f]+$/.test(v))).toEqual([]);
    expect(JSON.stringify(puts)).not.toContain('ada@');
    expect(JSON.stringify(puts)).not.toContain('example');
  });

  it('asks the signIn callback before sending, and a refusal sends nothing', async () => {
    const f = await setup({}, { callbacks: { signIn: () => false } });
    const res = await send(f.client(), EMAIL);
    expect(await errorCode(res)).toBe('ACCESS_DENIED');
    expect(f.mail).toStrictEqual([]);
  });

  it('withdraws the code and answers 502 when the awaited hook throws', async () => {
    const f = await setup({
      sendVerificationOTP: () => {
        throw new Error('smtp down');
      },
    });
    const res = await send(f.client(), EMAIL);
    expect(res.status).toBe(502);
    expect(await errorCode(res)).toBe('OTP_SEND_FAILED');
  });

  it('limits sends per address and per IP on the emailVerification limiter', async () => {
    const limiter = createEmailVerificationRateLimiter(createFixedWindowStorage(), { limit: 2, window: 3600 });
    const f = await setup({}, { rateLimit: { login: false, emailVerification: limiter } });
    const a = f.client();
    expect((await send(a, EMAIL)).status).toBe(200);
    expect((await send(f.client(), EMAIL)).status).toBe(200);
    const third = await send(f.client(), EMAIL);
    expect(third.status).toBe(429);
    expect(f.mail).toHaveLength(2);
    expect((await send(a, 'grace@example.com')).status).toBe(200);
    expect((await send(a, 'alan@example.com')).status).toBe(429);
  });
});

describe('emailOTP password reset', () => {
  it('answers alike for unknown addresses and mails only accounts', async () => {
    const f = await setup();
    const c = f.client();
    const unknown = await send(c, 'nobody@example.com', 'forget-password');
    const known = await send(c, EMAIL, 'forget-password');
    expect([unknown.status, known.status]).toStrictEqual([200, 200]);
    expect(await unknown.text()).toBe(await known.text());
    await f.lastCode(EMAIL, 'forget-password');
    expect(f.mail.map((m) => m.email)).toStrictEqual([EMAIL]);
  });

  it("runs the app's new-password checks first: a refused password keeps the code", async () => {
    const refuse: AuthPlugin<'refuseBreached'> = {
      id: 'refuseBreached',
      hooks: {
        checkNewPassword(password) {
          if (password === 'a-breached-password') throw badRequest('This password is breached');
        },
      },
    };
    const mail: EmailOtpMail[] = [];
    const sendVerificationOTP = (m: EmailOtpMail) => void mail.push(m);
    const f = await setup({}, { plugins: [emailOTP({ sendVerificationOTP }), refuse] });
    const c = f.client();
    await send(c, EMAIL, 'forget-password');
    await vi.waitFor(() => expect(mail.length).toBe(1));
    const code = mail[0]!.otp;
    const reset = (password: string) => c.postJson('/auth/email-otp/reset-password', { email: EMAIL, code, password });
    expect((await reset('a-breached-password')).status).toBe(400);
    expect((await reset('a-fine-password')).status).toBe(200);
  });

  it('sets the password, ends every earlier session and signs in', async () => {
    const f = await setup();
    const other = f.client();
    await other.signIn();
    expect(await other.session()).not.toBeNull();
    const c = f.client();
    await send(c, EMAIL, 'forget-password');
    const code = await f.lastCode(EMAIL, 'forget-password');
    const short = await c.postJson('/auth/email-otp/reset-password', { email: EMAIL, code, password: 'short' });
    expect(short.status).toBe(400);
    const res = await c.postJson('/auth/email-otp/reset-password', {
      email: EMAIL,
      code,
      password: 'difference-engine',
    });
    expect(res.status).toBe(200);
    expect((await c.session())?.user.id).toBe(f.userId);
    expect(await other.session()).toBeNull();
    expect((await f.client().signIn(EMAIL, PASSWORD)).status).toBe(401);
    expect((await f.client().signIn(EMAIL, 'difference-engine')).status).toBe(200);
    const again = await f.client().postJson('/auth/email-otp/reset-password', {
      email: EMAIL,
      code,
      password: 'another-password',
    });
    expect(await errorCode(again)).toBe('OTP_INVALID');
  });
});

describe('emailOTP email verification', () => {
  it("verifies the signed-in user's own address with a code, and needs a session", async () => {
    const f = await setup();
    const c = f.client();
    expect((await send(c, EMAIL, 'email-verification')).status).toBe(401);
    await c.signIn();
    expect((await send(c, 'someone@example.com', 'email-verification')).status).toBe(200);
    const code = await f.lastCode(EMAIL, 'email-verification');
    expect(f.mail.map((m) => m.email)).toStrictEqual([EMAIL]);
    expect(await errorCode(await f.client().postJson('/auth/email-otp/verify-email', { code }))).toBe(
      'UNAUTHENTICATED',
    );
    const res = await c.postJson('/auth/email-otp/verify-email', { code });
    expect(res.status).toBe(200);
    expect((await f.adapter.getUser(f.userId))?.emailVerified).toBeInstanceOf(Date);
    expect(await errorCode(await send(c, EMAIL, 'nonsense'))).toBe('EMAIL_OTP_TYPE_INVALID');
  });
});

describe('emailOTP pages (no JavaScript)', () => {
  it('signs in through the forms: address, then code, then the callback URL', async () => {
    const f = await setup();
    const c = f.client();
    const signInPage = await c.request('/auth/signin', { headers: { accept: 'text/html' } });
    expect(await signInPage.text()).toContain('action="/auth/email-otp/send"');
    const form = await c.request('/auth/email-otp/sign-in', { headers: { accept: 'text/html' } });
    expect(await form.text()).toContain('name="email"');
    const sent = await c.postForm('/auth/email-otp/send', { email: EMAIL, type: 'sign-in', callbackUrl: '/home' });
    expect(sent.status).toBe(303);
    const next = sent.headers.get('location')!;
    expect(next).toBe('/auth/email-otp/sign-in?email=ada%40example.com&callbackUrl=%2Fhome');
    const codePage = await (await c.request(next, { headers: { accept: 'text/html' } })).text();
    expect(codePage).toContain('name="code"');
    const code = await f.lastCode();
    const bad = await c.postForm('/auth/email-otp/sign-in', { email: EMAIL, code: wrong(code), callbackUrl: '/home' });
    expect(bad.status).toBe(401);
    expect(await bad.text()).toContain('That code is wrong or has expired');
    const ok = await c.postForm('/auth/email-otp/sign-in', { email: EMAIL, code, callbackUrl: '/home' });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/home');
    expect((await c.session())?.user.id).toBe(f.userId);
  });
});
