/**
 * `@framework/auth-client/plugins/phone-number`: browser functions for the routes of the server's `phoneNumber()`
 * plugin (`@framework/auth/plugins/phone-number`). Each resolves to an {@link AccountResult} and never rejects.
 *
 * Errors: `PHONE_NUMBER_INVALID` (400: not a valid number), `PHONE_NUMBER_PURPOSE_INVALID` (400),
 * `PHONE_NUMBER_TAKEN` (409: another account holds the number), `OTP_INVALID` (401: wrong, used, expired, or sent
 * for another number or purpose), `OTP_TOO_MANY_ATTEMPTS` (429: ask for a new code), `OTP_SEND_FAILED` (502),
 * `UNAUTHENTICATED` (401: `verify` needs a session), `RATE_LIMITED` (429).
 * @module
 */
import { authRequest, type AccountResult, type AuthClientOptions } from '@framework/auth-client';

/** What a code is for: signing in (or up), or proving a number for the signed-in user. */
export type PhoneOtpPurpose = 'sign-in' | 'verification';

/**
 * Asks for a code by SMS: `POST {basePath}/phone-number/send-otp`. `phoneNumber` may be typed as people do
 * (`+44 20 7946 0018`, or national with the server's `defaultCountry`). Answers `ok` whether or not the number has
 * an account; `verification` needs a session.
 * @example
 * ```ts
 * await sendPhoneNumberOtp({ phoneNumber: '+44 20 7946 0018' });
 * ```
 */
export const sendPhoneNumberOtp = (
  input: { phoneNumber: string; purpose?: PhoneOtpPurpose },
  options?: AuthClientOptions,
) => authRequest<{ ok: true }>('/phone-number/send-otp', options, input);

/**
 * Signs in with the texted code (creating the account when the server allows sign-up): `POST
 * {basePath}/phone-number/sign-in`. On success the session store refreshes; `data.url` is where to go.
 * @example
 * ```ts
 * const { ok, data } = await signInPhoneNumber({ phoneNumber: '+442079460018', code: '123456' });
 * if (ok) location.assign(data!.url);
 * ```
 */
export const signInPhoneNumber = (
  input: { phoneNumber: string; code: string; callbackUrl?: string },
  options?: AuthClientOptions,
) => authRequest<{ url: string }>('/phone-number/sign-in', options, input, true);

/**
 * Adds the number to the signed-in account, verified, with the code texted for `verification`: `POST
 * {basePath}/phone-number/verify`. `data.phoneNumber` is the number in E.164.
 * @example
 * ```ts
 * await sendPhoneNumberOtp({ phoneNumber: '+12015550123', purpose: 'verification' });
 * await verifyPhoneNumber({ phoneNumber: '+12015550123', code: '123456' });
 * ```
 */
export const verifyPhoneNumber = (input: { phoneNumber: string; code: string }, options?: AuthClientOptions) =>
  authRequest<{ phoneNumber: string }>('/phone-number/verify', options, input, true);

/**
 * `signIn.phoneNumber(input)`: {@link signInPhoneNumber} under the name the other sign-in methods use.
 * @example
 * ```ts
 * import { signIn } from '@framework/auth-client/plugins/phone-number';
 * await signIn.phoneNumber({ phoneNumber: '+442079460018', code: '123456' });
 * ```
 */
export const signIn = { phoneNumber: signInPhoneNumber } as const;

/**
 * `phoneNumber.sendOTP(input)` and `phoneNumber.verify(input)`: {@link sendPhoneNumberOtp} and
 * {@link verifyPhoneNumber}.
 * @example
 * ```ts
 * import { phoneNumber } from '@framework/auth-client/plugins/phone-number';
 * await phoneNumber.sendOTP({ phoneNumber: '+442079460018' });
 * ```
 */
export const phoneNumber = { sendOTP: sendPhoneNumberOtp, verify: verifyPhoneNumber } as const;

export type { AccountResult };
