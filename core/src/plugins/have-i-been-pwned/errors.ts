/**
 * `haveIBeenPwned()`'s error codes, declared with `defineErrorCodes`: each code's HTTP status and client-safe message.
 * @module
 */
import { defineErrorCodes, type ErrorCodesOf } from '../../plugin-kit.js';

/**
 * The codes `haveIBeenPwned()` refuses a new password with: `{ status, message }` by code.
 *
 * - `PASSWORD_BREACHED` (400): the password is in the Pwned Passwords corpus (at least `minCount` times).
 * - `PASSWORD_CHECK_UNAVAILABLE` (503): the range API could not be reached and `onError` is `'refuse'`.
 * @example
 * ```ts
 * import { PWNED_PASSWORD_ERRORS } from '@framework/auth/plugins/have-i-been-pwned';
 * const status = PWNED_PASSWORD_ERRORS.codes.PASSWORD_BREACHED.status; // 400
 * ```
 */
export const PWNED_PASSWORD_ERRORS = /* @__PURE__ */ defineErrorCodes({
  PASSWORD_BREACHED: { status: 400, message: 'This password has appeared in a data breach; choose a different one' },
  PASSWORD_CHECK_UNAVAILABLE: {
    status: 503,
    message: 'The password could not be checked right now; try again shortly',
  },
});

/** A code of {@link PWNED_PASSWORD_ERRORS}. */
export type PwnedPasswordErrorCode = ErrorCodesOf<typeof PWNED_PASSWORD_ERRORS>;

// The codes are members of `AuthErrorCode`, as the other built-in plugins' codes are.
declare module '../../error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface AuthErrorCodes extends Record<PwnedPasswordErrorCode, true> {}
}
