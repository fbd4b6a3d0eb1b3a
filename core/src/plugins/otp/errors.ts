/**
 * The error codes of one-time codes (email OTP, phone number): one table, raised through {@link otpError}.
 * @module
 */
import { AuthError } from '../../plugin-kit.js';

/** Every code a one-time-code route raises, with its HTTP status and the message shown to people. */
export const OTP_ERRORS = {
  /** The code is wrong, used, expired, or was sent for another purpose or address. */
  OTP_INVALID: { status: 401, message: 'That code is wrong or has expired' },
  /** The code took its last allowed try: ask for a new one. */
  OTP_TOO_MANY_ATTEMPTS: { status: 429, message: 'Too many wrong codes: ask for a new one' },
  /** The app's sending hook threw: no code went out. */
  OTP_SEND_FAILED: { status: 502, message: 'The code could not be sent: try again later' },
} as const satisfies Record<string, { status: number; message: string }>;

/** A code of {@link OTP_ERRORS}. */
export type OtpErrorCode = keyof typeof OTP_ERRORS;

/** The `AuthError` for `code`, with its status and message from {@link OTP_ERRORS}. */
export function otpError(code: OtpErrorCode): AuthError {
  const { status, message } = OTP_ERRORS[code];
  return new AuthError(message, { code, status });
}

// The codes are members of `AuthErrorCode`, as an app's own codes are (see `AuthErrorCodes`).
declare module '../../error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface AuthErrorCodes extends Record<keyof typeof OTP_ERRORS, true> {}
}
