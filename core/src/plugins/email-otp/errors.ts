/**
 * The error codes of `emailOTP()` beside the shared code errors (`OTP_INVALID`, `OTP_TOO_MANY_ATTEMPTS`,
 * `OTP_SEND_FAILED` from `@framework/auth/plugins/otp`), declared with `defineErrorCodes`.
 * @module
 */
import { defineErrorCodes, type AuthError, type ErrorCodesOf, type ErrorDetail } from '../../plugin-kit.js';

/**
 * Every code `emailOTP()` raises itself: `{ status, message }` by code.
 *
 * - `EMAIL_OTP_TYPE_INVALID` (400): `type` is not `sign-in`, `email-verification` or `forget-password`.
 * - `EMAIL_OTP_EMAIL_INVALID` (400): the email field is missing or not an address.
 * - `EMAIL_OTP_NO_EMAIL` (400): the account has no email to verify (`verify-email`).
 * @example
 * ```ts
 * import { EMAIL_OTP_ERRORS } from '@framework/auth/plugins/email-otp';
 * const status = EMAIL_OTP_ERRORS.codes.EMAIL_OTP_NO_EMAIL.status; // 400
 * ```
 */
export const EMAIL_OTP_ERRORS = /* @__PURE__ */ defineErrorCodes({
  EMAIL_OTP_TYPE_INVALID: { status: 400, message: 'type must be sign-in, email-verification or forget-password' },
  EMAIL_OTP_EMAIL_INVALID: { status: 400, message: 'Enter a valid email address' },
  EMAIL_OTP_NO_EMAIL: { status: 400, message: 'This account has no email address to verify' },
});

/** A code of {@link EMAIL_OTP_ERRORS}. */
export type EmailOtpErrorCode = ErrorCodesOf<typeof EMAIL_OTP_ERRORS>;

/** The `AuthError` for `code` from {@link EMAIL_OTP_ERRORS}: `EMAIL_OTP_ERRORS.error(code, detail)`. */
export function emailOtpError(code: EmailOtpErrorCode, detail?: ErrorDetail): AuthError {
  return EMAIL_OTP_ERRORS.error(code, detail);
}

// The codes are members of `AuthErrorCode`, as the other built-in plugins' codes are.
declare module '../../error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface AuthErrorCodes extends Record<EmailOtpErrorCode, true> {}
}
