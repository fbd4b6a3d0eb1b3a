/**
 * The error codes of `twoFactor()`.
 * @module
 */
import { defineErrorCodes, type ErrorCodesOf } from '../../plugin-kit.js';

/**
 * The codes two-factor routes answer with: `{ status, message }` by code.
 * @example
 * ```ts
 * import { TWO_FACTOR_ERRORS } from '@framework/auth/plugins/two-factor';
 * const status = TWO_FACTOR_ERRORS.codes.TWO_FACTOR_LOCKED.status; // 429
 * ```
 */
export const TWO_FACTOR_ERRORS = /* @__PURE__ */ defineErrorCodes({
  TWO_FACTOR_NOT_ENABLED: { status: 400, message: 'Two-factor authentication is not set up' },
  TWO_FACTOR_REQUIRED: { status: 401, message: 'Enter the code from your authenticator app' },
  TWO_FACTOR_INVALID_CODE: { status: 401, message: 'The code is wrong or was already used' },
  TWO_FACTOR_CHALLENGE_INVALID: { status: 401, message: 'The sign-in expired; sign in again' },
  TWO_FACTOR_ALREADY_ENABLED: { status: 409, message: 'Two-factor authentication is already on' },
  TWO_FACTOR_TOO_MANY_ATTEMPTS: { status: 429, message: 'Too many codes tried; sign in again' },
  TWO_FACTOR_LOCKED: { status: 429, message: 'Too many wrong codes; try again later' },
});

// The built-in plugins' codes stay members of `AuthErrorCode`, as before they had tables of their own.
declare module '../../error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface AuthErrorCodes extends Record<ErrorCodesOf<typeof TWO_FACTOR_ERRORS>, true> {}
}
