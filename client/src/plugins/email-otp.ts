/**
 * `@framework/auth-client/plugins/email-otp`: browser functions for every route of the server's `emailOTP()` plugin
 * (`@framework/auth/plugins/email-otp`). Each resolves to an {@link AccountResult} and never rejects.
 *
 * Errors: `OTP_INVALID` (401: wrong, used, expired, or sent for another purpose or address), `OTP_TOO_MANY_ATTEMPTS`
 * (429: the code's tries are spent, ask for a new one), `OTP_SEND_FAILED` (502), `EMAIL_OTP_EMAIL_INVALID` and
 * `EMAIL_OTP_TYPE_INVALID` (400), `RATE_LIMITED` (429).
 * @module
 */
import { authRequest, type AccountResult, type AuthClientOptions } from '@framework/auth-client';

/** What a code is for. */
export type EmailOtpType = 'sign-in' | 'email-verification' | 'forget-password';

/**
 * Asks for a code by email: `POST {basePath}/email-otp/send`. Answers `ok` whether or not the address has an
 * account; `email-verification` goes to the signed-in user's own address.
 * @example
 * ```ts
 * await sendEmailOtp({ email: 'ada@example.com', type: 'sign-in' });
 * ```
 */
export const sendEmailOtp = (input: { email?: string; type: EmailOtpType }, options?: AuthClientOptions) =>
  authRequest<{ ok: true }>('/email-otp/send', options, input);

/**
 * Signs in with the mailed code (creating the account when the server allows sign-up): `POST
 * {basePath}/email-otp/sign-in`. On success the session store refreshes; `data.url` is where to go.
 * @example
 * ```ts
 * const { ok, data } = await signInEmailOtp({ email: 'ada@example.com', code: '123456' });
 * if (ok) location.assign(data!.url);
 * ```
 */
export const signInEmailOtp = (
  input: { email: string; code: string; callbackUrl?: string },
  options?: AuthClientOptions,
) => authRequest<{ url: string }>('/email-otp/sign-in', options, input, true);

/**
 * Verifies the signed-in user's email with the mailed code: `POST {basePath}/email-otp/verify-email`. The store
 * refreshes.
 * @example
 * ```ts
 * await sendEmailOtp({ type: 'email-verification' });
 * await verifyEmailOtp({ code: '123456' });
 * ```
 */
export const verifyEmailOtp = (input: { code: string }, options?: AuthClientOptions) =>
  authRequest<{ url: string }>('/email-otp/verify-email', options, input, true);

/**
 * Sets a new password with a code sent for `forget-password`: `POST {basePath}/email-otp/reset-password`. Every
 * other session ends and this browser is signed in; the store refreshes.
 * @example
 * ```ts
 * await sendEmailOtp({ email, type: 'forget-password' });
 * await resetPasswordEmailOtp({ email, code: '123456', password: 'a new long password' });
 * ```
 */
export const resetPasswordEmailOtp = (
  input: { email: string; code: string; password: string; callbackUrl?: string },
  options?: AuthClientOptions,
) => authRequest<{ url: string }>('/email-otp/reset-password', options, input, true);

export type { AccountResult };
