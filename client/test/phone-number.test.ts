/**
 * `@framework/auth-client/plugins/phone-number` against the real engine with `phoneNumber()`: a sign-in by SMS code
 * that creates the account, a wrong code, an invalid number, and a number added to a signed-in account.
 */
import { describe, expect, it } from 'vitest';
import { phoneNumber as phoneNumberPlugin, type PhoneOtpMessage } from '@framework/auth/plugins/phone-number';
import { phoneNumber, signIn } from '../src/plugins/phone-number.js';
import { engine } from './engine-fetch.js';

const SECRET = 'client-phone-number-test-secret-0123456789abcdef';

describe('phone number client functions', () => {
  it('sign in (and up) with a texted code, and add a number to a signed-in account', async () => {
    const texts: PhoneOtpMessage[] = [];
    const { browser, ada } = await engine({
      secret: SECRET,
      plugins: [phoneNumberPlugin({ defaultCountry: 'GB', sendOTP: (m) => void texts.push(m) })],
      rateLimit: { login: false },
    });
    const lastCode = () => texts.at(-1)!.code;

    const phone = browser();
    const p = { fetch: phone.fetch };
    expect(await phoneNumber.sendOTP({ phoneNumber: 'not a number' }, p)).toMatchObject({
      ok: false,
      status: 400,
      error: 'PHONE_NUMBER_INVALID',
    });
    expect(await phoneNumber.sendOTP({ phoneNumber: '020 7946 0018' }, p)).toMatchObject({ ok: true });
    expect(texts.at(-1)).toMatchObject({ phoneNumber: '+442079460018', purpose: 'sign-in' });
    const wrong = lastCode() === '000000' ? '111111' : '000000';
    expect(await signIn.phoneNumber({ phoneNumber: '+442079460018', code: wrong }, p)).toMatchObject({
      ok: false,
      status: 401,
      error: 'OTP_INVALID',
    });
    const signedIn = await signIn.phoneNumber(
      { phoneNumber: '+44 20 7946 0018', code: lastCode(), callbackUrl: '/home' },
      p,
    );
    expect(signedIn).toMatchObject({ ok: true, data: { url: '/home' } });
    expect((await phone.client.getSession())?.user.id).toBeTruthy();

    const laptop = browser();
    const l = { fetch: laptop.fetch };
    const credentials = { email: 'ada@example.com', password: 'analytical-engine', redirect: false } as const;
    expect((await laptop.client.signIn('credentials', credentials)).ok).toBe(true);
    await phoneNumber.sendOTP({ phoneNumber: '+1 201-555-0123', purpose: 'verification' }, l);
    expect(await phoneNumber.verify({ phoneNumber: '+12015550123', code: lastCode() }, l)).toMatchObject({
      ok: true,
      data: { phoneNumber: '+12015550123' },
    });
    expect((await laptop.client.getSession())?.user.id).toBe(ada.id);
  });
});
