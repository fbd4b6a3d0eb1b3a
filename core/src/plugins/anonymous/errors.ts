/**
 * The error codes of `anonymous()`.
 * @module
 */
import { defineErrorCodes, type ErrorCodesOf } from '../../plugin-kit.js';

/**
 * The codes `anonymous()` answers with: `{ status, message }` by code.
 * @example
 * ```ts
 * import { ANONYMOUS_ERRORS } from '@framework/auth/plugins/anonymous';
 * const status = ANONYMOUS_ERRORS.codes.ANONYMOUS_NOT_ALLOWED.status; // 403
 * ```
 */
export const ANONYMOUS_ERRORS = /* @__PURE__ */ defineErrorCodes({
  /** A guest asked for a route that adds or changes credentials (a password, an email, a passkey...). */
  ANONYMOUS_NOT_ALLOWED: { status: 403, message: 'Create an account or sign in first' },
  /** `POST /anonymous/sign-in` from a browser that is already signed in. */
  ANONYMOUS_ALREADY_SIGNED_IN: { status: 400, message: 'You are already signed in' },
});

/** A code of {@link ANONYMOUS_ERRORS}. */
export type AnonymousErrorCode = ErrorCodesOf<typeof ANONYMOUS_ERRORS>;

// The built-in plugins' codes are members of `AuthErrorCode`.
declare module '../../error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface AuthErrorCodes extends Record<ErrorCodesOf<typeof ANONYMOUS_ERRORS>, true> {}
}
