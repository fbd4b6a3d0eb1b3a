/**
 * The error codes of `emailOTP()` beside the shared code errors (`OTP_INVALID`, `OTP_TOO_MANY_ATTEMPTS`,
 * `OTP_SEND_FAILED` from `@framework/auth/plugins/otp`): one table, raised through {@link emailOtpError}.
 * @module
 */
import { AuthError } from '../../plugin-kit.js';

/** Every code `emailOTP()` raises itself, with its HTTP status and the message shown to people. */
export const EMAIL_OTP_ERRORS = {
  /** `type` is not `sign-in`, `email-verification` or `forget-password`. */
  EMAIL_OTP_TYPE_INVALID: {
    status: 400,
    message: 'type must be sign-in, email-verification or forget-password',
  },
  /** The email field is missing or not an address. */
  EMAIL_OTP_EMAIL_INVALID: { status: 400, message: 'Enter a valid email address' },
  /** The account has no email to verify (`verify-email`). */
  EMAIL_OTP_NO_EMAIL: { status: 400, message: 'This account has no email address to verify' },
} as const satisfies Record<string, { status: number; message: string }>;

/** A code of {@link EMAIL_OTP_ERRORS}. */
export type EmailOtpErrorCode = keyof typeof EMAIL_OTP_ERRORS;

/** The `AuthError` for `code`, with its status and message from {@link EMAIL_OTP_ERRORS}. */
export function emailOtpError(code: EmailOtpErrorCode): AuthError {
  const { status, message } = EMAIL_OTP_ERRORS[code];
  return new AuthError(message, { code, status });
}

// The codes are members of `AuthErrorCode`, as an app's own codes are (see `AuthErrorCodes`).
declare module '../../error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface AuthErrorCodes extends Record<keyof typeof EMAIL_OTP_ERRORS, true> {}
}
