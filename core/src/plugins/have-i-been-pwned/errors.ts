/**
 * `haveIBeenPwned()`'s error codes, one table: each code's HTTP status and client-safe message.
 * @module
 */
import { AuthError } from '../../plugin-kit.js';
import type { AuthErrorCode } from '../../index.js';

/** The codes `haveIBeenPwned()` refuses a new password with. */
export const PWNED_PASSWORD_ERRORS = {
  /** The password is in the Pwned Passwords corpus (at least `minCount` times). */
  PASSWORD_BREACHED: {
    status: 400,
    message: 'This password has appeared in a data breach; choose a different one',
  },
  /** The range API could not be reached and `onError` is `'refuse'`. */
  PASSWORD_CHECK_UNAVAILABLE: {
    status: 503,
    message: 'The password could not be checked right now; try again shortly',
  },
} as const;

/** A code of {@link PWNED_PASSWORD_ERRORS}. */
export type PwnedPasswordErrorCode = keyof typeof PWNED_PASSWORD_ERRORS;

/** The `AuthError` of `code`, with its status and message from {@link PWNED_PASSWORD_ERRORS}. */
export function pwnedPasswordError(code: PwnedPasswordErrorCode): AuthError {
  const { status, message } = PWNED_PASSWORD_ERRORS[code];
  return new AuthError(message, { code: code as AuthErrorCode, status });
}
