/**
 * The error codes of `username()`.
 * @module
 */
import { defineErrorCodes, type ErrorCodesOf } from '../../plugin-kit.js';

/**
 * The codes the username routes answer with: `{ status, message }` by code. A wrong username or password answers
 * the core's 401 `INVALID_CREDENTIALS`, the same for an unknown username.
 * @example
 * ```ts
 * import { USERNAME_ERRORS } from '@framework/auth/plugins/username';
 * const status = USERNAME_ERRORS.codes.USERNAME_TAKEN.status; // 409
 * ```
 */
export const USERNAME_ERRORS = /* @__PURE__ */ defineErrorCodes({
  USERNAME_INVALID: {
    status: 400,
    message: 'Choose a username of letters, digits, "_" and "." with no spaces or look-alike characters',
  },
  USERNAME_TAKEN: { status: 409, message: 'That username is taken' },
});

/** A code of {@link USERNAME_ERRORS}. */
export type UsernameErrorCode = ErrorCodesOf<typeof USERNAME_ERRORS>;

// The built-in plugins' codes are members of `AuthErrorCode`.
declare module '../../error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface AuthErrorCodes extends Record<ErrorCodesOf<typeof USERNAME_ERRORS>, true> {}
}
