/**
 * The error codes of custom user fields. They are not in the core's `AUTH_ERRORS` table (nor in `AuthErrorCode`):
 * the fields are configuration, and their codes are listed with them in core/README.md "Custom user fields".
 * @module
 */
import type { AuthErrorCode } from '../error-codes.js';
import { AuthError } from '../errors.js';

/**
 * The error codes of custom user fields and their HTTP statuses (answered as `{ error: { code, message } }`).
 * @example
 * ```ts
 * import { USER_FIELD_ERRORS } from '@framework/auth';
 *
 * const status = USER_FIELD_ERRORS.USER_FIELD_TAKEN; // 409
 * ```
 */
export const USER_FIELD_ERRORS = {
  USER_FIELD_INVALID: 400,
  USER_FIELD_REQUIRED: 400,
  USER_FIELD_NOT_INPUT: 400,
  USER_FIELD_UNKNOWN: 400,
  USER_FIELD_TAKEN: 409,
} as const;

/** An {@link AuthError} with one of the codes above and its status. */
export function userFieldError(code: keyof typeof USER_FIELD_ERRORS, message: string): AuthError {
  // A code outside the core's table, as a plugin's: the status is given, so nothing looks the code up.
  return new AuthError(message, { code: code as AuthErrorCode, status: USER_FIELD_ERRORS[code] });
}
