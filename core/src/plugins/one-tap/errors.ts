/**
 * The error codes of `oneTap()`, declared with `defineErrorCodes`.
 * @module
 */
import { defineErrorCodes, type AuthError, type ErrorCodesOf, type ErrorDetail } from '../../plugin-kit.js';

/**
 * Every code `oneTap()` raises: `{ status, message }` by code.
 *
 * - `ONE_TAP_TOKEN_INVALID` (401): the ID token is missing, malformed, not signed by a key of the JWKS with RS256,
 *   expired, or issued by another issuer or for another client, or it was used already.
 * - `ONE_TAP_EMAIL_UNVERIFIED` (403): the token carries no email, or Google does not report it verified.
 * - `ONE_TAP_NONCE_INVALID` (401): the token's `nonce` does not match the one this browser was given, or that
 *   nonce was used already.
 * - `ONE_TAP_CSRF_INVALID` (403): Google's form post without a matching `g_csrf_token` cookie and field.
 * - `ONE_TAP_SIGN_UP_DISABLED` (403): no account for this Google user and `signUp` is off.
 * @example
 * ```ts
 * import { ONE_TAP_ERRORS } from '@framework/auth/plugins/one-tap';
 * const status = ONE_TAP_ERRORS.codes.ONE_TAP_TOKEN_INVALID.status; // 401
 * ```
 */
export const ONE_TAP_ERRORS = /* @__PURE__ */ defineErrorCodes({
  ONE_TAP_TOKEN_INVALID: {
    status: 401,
    message: 'The Google sign-in could not be verified',
    page: 'CredentialsSignin',
  },
  ONE_TAP_EMAIL_UNVERIFIED: { status: 403, message: 'Google did not report a verified email for this account' },
  ONE_TAP_NONCE_INVALID: {
    status: 401,
    message: 'The Google sign-in could not be verified',
    page: 'CredentialsSignin',
  },
  ONE_TAP_CSRF_INVALID: { status: 403, message: 'The Google sign-in request could not be checked' },
  ONE_TAP_SIGN_UP_DISABLED: { status: 403, message: 'There is no account for this Google user' },
});

/** A code of {@link ONE_TAP_ERRORS}. */
export type OneTapErrorCode = ErrorCodesOf<typeof ONE_TAP_ERRORS>;

/** The `AuthError` for `code` from {@link ONE_TAP_ERRORS}. */
export function oneTapError(code: OneTapErrorCode, detail?: ErrorDetail): AuthError {
  return ONE_TAP_ERRORS.error(code, detail);
}

// The codes are members of `AuthErrorCode`, as the other built-in plugins' codes are.
declare module '../../error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface AuthErrorCodes extends Record<OneTapErrorCode, true> {}
}
