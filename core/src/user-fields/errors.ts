/**
 * The error codes of custom user fields, added to `AuthErrorCodes` as plugins add theirs.
 * @module
 */
import { AuthError } from '../errors.js';

declare module '../error-codes.js' {
  interface AuthErrorCodes {
    /** 400: a custom field's value does not parse as its type, or breaks its limits. */
    USER_FIELD_INVALID: true;
    /** 400: a required custom field is missing or empty. */
    USER_FIELD_REQUIRED: true;
    /** 400: the request sets a custom field declared with `input: false`. */
    USER_FIELD_NOT_INPUT: true;
    /** 400: `POST {basePath}/account/update` got a field it does not know. */
    USER_FIELD_UNKNOWN: true;
    /** 409: another user holds this value of a `unique` custom field. */
    USER_FIELD_TAKEN: true;
  }
}

/** The codes above with their statuses, for the README's table of custom-field errors. */
export const USER_FIELD_ERRORS = {
  USER_FIELD_INVALID: 400,
  USER_FIELD_REQUIRED: 400,
  USER_FIELD_NOT_INPUT: 400,
  USER_FIELD_UNKNOWN: 400,
  USER_FIELD_TAKEN: 409,
} as const;

/** An {@link AuthError} with one of the codes above and its status. */
export function userFieldError(code: keyof typeof USER_FIELD_ERRORS, message: string): AuthError {
  return new AuthError(message, { code, status: USER_FIELD_ERRORS[code] });
}
