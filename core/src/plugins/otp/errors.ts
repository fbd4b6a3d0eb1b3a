/**
 * The error codes of one-time codes (email OTP, phone number), declared with `defineErrorCodes`.
 * @module
 */
import { defineErrorCodes, type AuthError, type ErrorCodesOf, type ErrorDetail } from '../../plugin-kit.js';

/**
 * Every code a one-time-code route raises: `{ status, message }` by code. Raise them with `OTP_ERRORS.error(code)`
 * (or {@link otpError}).
 *
 * - `OTP_INVALID` (401): the code is wrong, used, expired, or was sent for another purpose or address.
 * - `OTP_TOO_MANY_ATTEMPTS` (429): the code took its last allowed try; ask for a new one.
 * - `OTP_SEND_FAILED` (502): the app's sending hook threw; no code went out.
 * @example
 * ```ts
 * import { OTP_ERRORS } from '@framework/auth/plugins/otp';
 * const status = OTP_ERRORS.codes.OTP_TOO_MANY_ATTEMPTS.status; // 429
 * ```
 */
export const OTP_ERRORS = /* @__PURE__ */ defineErrorCodes({
  OTP_INVALID: { status: 401, message: 'That code is wrong or has expired' },
  OTP_TOO_MANY_ATTEMPTS: { status: 429, message: 'Too many wrong codes: ask for a new one' },
  OTP_SEND_FAILED: { status: 502, message: 'The code could not be sent: try again later' },
});

/** A code of {@link OTP_ERRORS}. */
export type OtpErrorCode = ErrorCodesOf<typeof OTP_ERRORS>;

/**
 * The `AuthError` for `code`, with its status and message from {@link OTP_ERRORS} (`detail`: a specific message, or
 * `{ message?, headers?, cause? }`). The same as `OTP_ERRORS.error(code, detail)`.
 * @example
 * ```ts
 * import { otpError } from '@framework/auth/plugins/otp';
 * throw otpError('OTP_INVALID'); // 401 { error: { code: 'OTP_INVALID', message: 'That code is wrong or has expired' } }
 * ```
 */
export function otpError(code: OtpErrorCode, detail?: ErrorDetail): AuthError {
  return OTP_ERRORS.error(code, detail);
}

// The codes are members of `AuthErrorCode`, as the other built-in plugins' codes are.
declare module '../../error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface AuthErrorCodes extends Record<OtpErrorCode, true> {}
}
