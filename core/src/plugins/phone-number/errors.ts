/**
 * The error codes of `phoneNumber()` beside the shared code errors (`OTP_INVALID`, `OTP_TOO_MANY_ATTEMPTS`,
 * `OTP_SEND_FAILED` from `@framework/auth/plugins/otp`).
 * @module
 */
import { defineErrorCodes, type ErrorCodesOf } from '../../plugin-kit.js';

/**
 * The codes `phoneNumber()` raises itself: `{ status, message }` by code.
 * @example
 * ```ts
 * import { PHONE_NUMBER_ERRORS } from '@framework/auth/plugins/phone-number';
 * const status = PHONE_NUMBER_ERRORS.codes.PHONE_NUMBER_INVALID.status; // 400
 * ```
 */
export const PHONE_NUMBER_ERRORS = /* @__PURE__ */ defineErrorCodes({
  /** The number is missing, malformed, not a valid number of its country, or carries an extension. */
  PHONE_NUMBER_INVALID: { status: 400, message: 'Enter a valid phone number' },
  /** `purpose` is not `sign-in` or `verification`. */
  PHONE_NUMBER_PURPOSE_INVALID: { status: 400, message: 'purpose must be sign-in or verification' },
  /** Another account holds this number, verified. */
  PHONE_NUMBER_TAKEN: { status: 409, message: 'This phone number belongs to another account' },
});

/** A code of {@link PHONE_NUMBER_ERRORS}. */
export type PhoneNumberErrorCode = ErrorCodesOf<typeof PHONE_NUMBER_ERRORS>;

// The built-in plugins' codes are members of `AuthErrorCode`.
declare module '../../error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface AuthErrorCodes extends Record<ErrorCodesOf<typeof PHONE_NUMBER_ERRORS>, true> {}
}
