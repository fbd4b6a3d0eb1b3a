/**
 * The error codes of custom user fields, declared with `defineErrorCodes` (listed with the fields in core/README.md
 * "Custom user fields"). Raise them with `USER_FIELD_ERRORS.error(code, message?)`.
 * @module
 */
import { defineErrorCodes, type ErrorCodesOf } from '../errors/define.js';

/**
 * The error codes of custom user fields: `{ status, message }` by code (answered as `{ error: { code, message } }`;
 * the raise sites give a message naming the field).
 * @example
 * ```ts
 * import { USER_FIELD_ERRORS } from '@framework/auth';
 *
 * const status = USER_FIELD_ERRORS.codes.USER_FIELD_TAKEN.status; // 409
 * ```
 */
export const USER_FIELD_ERRORS = /* @__PURE__ */ defineErrorCodes({
  USER_FIELD_INVALID: { status: 400, message: 'A user field has an invalid value' },
  USER_FIELD_REQUIRED: { status: 400, message: 'A required user field is missing' },
  USER_FIELD_NOT_INPUT: { status: 400, message: 'A user field cannot be set by the client' },
  USER_FIELD_UNKNOWN: { status: 400, message: 'Unknown user field' },
  USER_FIELD_TAKEN: { status: 409, message: 'This value is taken' },
});

/** A code of {@link USER_FIELD_ERRORS}. */
export type UserFieldErrorCode = ErrorCodesOf<typeof USER_FIELD_ERRORS>;

// The codes are members of `AuthErrorCode`, as the built-in plugins' codes are.
declare module '../error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface AuthErrorCodes extends Record<UserFieldErrorCode, true> {}
}

/**
 * The user-field codes an engine configured with the custom fields `F` answers with: every code of
 * {@link USER_FIELD_ERRORS} when `F` has a field, none otherwise (what `createAuth` adds to `AuthErrorCodeOf`).
 */
export type UserFieldErrorCodesOf<F> = [keyof F] extends [never] ? never : UserFieldErrorCode;
