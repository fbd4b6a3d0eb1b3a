/**
 * `@framework/auth-client/plugins/email-otp` against the real engine with `emailOTP()`: a sign-in that creates the
 * account, a wrong code, a password reset, and an email verification, each with the code the hook received.
 */
import { describe, expect, it } from 'vitest';
import { emailOTP, type EmailOtpMail } from '@framework/auth/plugins/email-otp';
import { resetPasswordEmailOtp, sendEmailOtp, signInEmailOtp, verifyEmailOtp } from '../src/plugins/email-otp.js';
import { engine } from './engine-fetch.js';

const SECRET = 'client-email-otp-test-secret-0123456789abcdef';

describe('email OTP client functions', () => {
  it('sign in (and sign up), reset a password and verify an email with mailed codes', async () => {
    const mail: EmailOtpMail[] = [];
    const { browser, adapter, ada } = await engine({
      secret: SECRET,
      plugins: [emailOTP({ sendVerificationOTP: (m) => void mail.push(m) })],
      rateLimit: { login: false },
    });
    const lastCode = () => mail.at(-1)!.otp;

    const grace = browser();
    const g = { fetch: grace.fetch };
    expect(await sendEmailOtp({ email: 'grace@example.com', type: 'sign-in' }, g)).toMatchObject({ ok: true });
    const wrong = lastCode() === '000000' ? '111111' : '000000';
    expect(await signInEmailOtp({ email: 'grace@example.com', code: wrong }, g)).toMatchObject({
      ok: false,
      status: 401,
      error: 'OTP_INVALID',
    });
    const signedIn = await signInEmailOtp({ email: 'grace@example.com', code: lastCode(), callbackUrl: '/home' }, g);
    expect(signedIn).toMatchObject({ ok: true, data: { url: '/home' } });
    expect((await grace.client.getSession())?.user.email).toBe('grace@example.com');

    const laptop = browser();
    const l = { fetch: laptop.fetch };
    await sendEmailOtp({ email: 'ada@example.com', type: 'forget-password' }, l);
    await expect.poll(() => mail.filter((m) => m.type === 'forget-password')).toHaveLength(1);
    const reset = await resetPasswordEmailOtp(
      { email: 'ada@example.com', code: lastCode(), password: 'difference-engine' },
      l,
    );
    expect(reset.ok).toBe(true);
    expect((await laptop.client.getSession())?.user.id).toBe(ada.id);

    await adapter.updateUser(ada.id, { emailVerified: null });
    expect(await sendEmailOtp({ type: 'email-verification' }, l)).toMatchObject({ ok: true });
    expect(await verifyEmailOtp({ code: lastCode() }, l)).toMatchObject({ ok: true });
    expect((await adapter.getUser(ada.id))?.emailVerified).toBeInstanceOf(Date);
  });
});
