/**
 * The error codes of `bearer()`.
 * @module
 */
import { defineErrorCodes, type ErrorCodesOf } from '../../plugin-kit.js';

/**
 * The codes `bearer()` answers with: `{ status, message }` by code.
 * @example
 * ```ts
 * import { BEARER_ERRORS } from '@framework/auth/plugins/bearer';
 * const status = BEARER_ERRORS.codes.BEARER_INVALID.status; // 401
 * ```
 */
export const BEARER_ERRORS = /* @__PURE__ */ defineErrorCodes({
  /** No `Authorization: Bearer` header, a malformed one, or a token of no valid session (expired, signed out). */
  BEARER_INVALID: { status: 401, message: 'Sign in again' },
  /** A bearer route called with a `Cookie` header: a browser with cookies uses the cookie routes. */
  BEARER_WITH_COOKIE: { status: 400, message: 'This route takes a bearer token and no cookies' },
});

/** A code of {@link BEARER_ERRORS}. */
export type BearerErrorCode = ErrorCodesOf<typeof BEARER_ERRORS>;

// The built-in plugins' codes are members of `AuthErrorCode`.
declare module '../../error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface AuthErrorCodes extends Record<ErrorCodesOf<typeof BEARER_ERRORS>, true> {}
}
