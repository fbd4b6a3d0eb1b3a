/**
 * The core's error codes, with each one's HTTP status, default message and error-page code: the table `authError`
 * raises from, `AuthErrorCode` is typed by, and the README's error table is checked against
 * (`error-codes.test.ts`). Plugins declare their own codes with `defineErrorCodes` (core/PLUGINS.md "Error codes").
 * Loading this module registers the table, so `statusOf` and the error pages know every core code.
 * @module
 */
import { registerErrorCodes, type ErrorCodeSpec } from './errors/registry.js';

export { statusOf } from './errors/registry.js';

/** An entry of {@link AUTH_ERRORS}: `{ status, message, page? }`. */
export type AuthErrorInfo = ErrorCodeSpec;

/** The core's error codes. */
export const AUTH_ERRORS = {
  INVALID_REQUEST: { status: 400, message: 'The request is malformed' },
  VERIFICATION_FAILED: { status: 400, message: 'The link is invalid, used or expired', page: 'Verification' },
  OAUTH_CALLBACK_ERROR: {
    status: 400,
    message: 'The sign-in with the provider could not be completed',
    page: 'OAuthCallbackError',
  },
  OAUTH_USERINFO_MISMATCH: {
    status: 400,
    message: "The provider's UserInfo does not belong to the signed-in subject",
    page: 'OAuthUserInfoMismatch',
  },
  NOT_SUPPORTED: { status: 400, message: 'Not supported with this configuration' },
  TOKEN_INVALID: { status: 400, message: 'The link is invalid, used or expired' },
  UNAUTHENTICATED: { status: 401, message: 'Authentication required' },
  INVALID_CREDENTIALS: { status: 401, message: 'Invalid credentials', page: 'CredentialsSignin' },
  SESSION_EXPIRED: { status: 401, message: 'Session expired' },
  CREDENTIAL_REFUSED: { status: 401, message: "This credential's account may not act (suspended or removed)" },
  ACCESS_TOKEN_EXPIRED: { status: 401, message: 'The access token expired and could not be refreshed' },
  OAUTH_REFRESH_FAILED: { status: 401, message: 'The access token could not be refreshed' },
  FORBIDDEN: { status: 403, message: 'Forbidden', page: 'Forbidden' },
  ACCESS_DENIED: { status: 403, message: 'Sign-in was denied', page: 'AccessDenied' },
  CSRF_ORIGIN_MISMATCH: { status: 403, message: 'Cross-site request refused', page: 'MissingCSRF' },
  CSRF_TOKEN_INVALID: { status: 403, message: 'Missing or invalid CSRF token', page: 'MissingCSRF' },
  SESSION_NOT_FRESH: { status: 403, message: 'Sign in again, or confirm your password' },
  EMAIL_NOT_VERIFIED: { status: 403, message: 'Verify your email address first' },
  IMPERSONATION_RESTRICTED: { status: 403, message: 'An admin acting as this user cannot do this' },
  API_KEY_NOT_ALLOWED: { status: 403, message: 'This cannot be used with an API key; sign in instead' },
  LINK_ACCOUNT_MISMATCH: { status: 403, message: 'This link belongs to another account' },
  NOT_FOUND: { status: 404, message: 'Not found', page: 'NotFound' },
  PROVIDER_NOT_FOUND: { status: 404, message: 'Unknown provider', page: 'InvalidProvider' },
  TENANT_NOT_FOUND: { status: 404, message: 'Unknown tenant' },
  USER_NOT_FOUND: { status: 404, message: 'No such user' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed' },
  EMAIL_TAKEN: { status: 409, message: 'An account with this email already exists' },
  LAST_OWNER: { status: 409, message: 'An organization needs an owner' },
  LAST_CREDENTIAL: { status: 409, message: 'This is the last way to sign in to the account' },
  OAUTH_ACCOUNT_NOT_LINKED: {
    status: 409,
    message: 'This account is not linked to the existing user with the same email',
    page: 'OAuthAccountNotLinked',
  },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported content type' },
  RATE_LIMITED: { status: 429, message: 'Too many attempts; try again later', page: 'RateLimited' },
  INVALID_CONFIG: { status: 500, message: 'Invalid auth configuration', page: 'Configuration' },
  INTERNAL_ERROR: { status: 500, message: 'Internal error' },
  CALLBACK_ERROR: { status: 500, message: 'A callback failed', page: 'Configuration' },
  OAUTH_SIGNIN_ERROR: { status: 502, message: 'The provider could not be reached', page: 'OAuthSignin' },
  OAUTH_USERINFO_FAILED: {
    status: 502,
    message: "The provider's UserInfo could not be read",
    page: 'OAuthUserInfoFailed',
  },
  EMAIL_SEND_FAILED: { status: 502, message: 'The email could not be sent' },
  EMAIL_SIGNIN_ERROR: { status: 502, message: 'The sign-in email could not be sent', page: 'EmailSignInError' },
  RATE_LIMIT_UNAVAILABLE: { status: 503, message: 'Sign-in is briefly unavailable; try again shortly' },
  STORAGE_UNAVAILABLE: { status: 503, message: 'Storage unavailable' },
} as const satisfies Record<string, AuthErrorInfo>;

registerErrorCodes(AUTH_ERRORS);

/**
 * The codes `AuthError.code` may hold: the core's, and any an app adds by augmenting this interface (still
 * supported). A plugin's own codes are better declared with `defineErrorCodes`, which also gives them a status,
 * a message and a page code, and types them on `@framework/auth-client` through `createAuth({ plugins })`.
 * @example
 * ```ts
 * declare module '@framework/auth' {
 *   interface AuthErrorCodes { MY_APP_CODE: true }
 * }
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging: apps augment it
export interface AuthErrorCodes extends Record<keyof typeof AUTH_ERRORS, true> {}

/** A code of {@link AuthErrorCodes}. */
export type AuthErrorCode = keyof AuthErrorCodes & string;

/** A code of the core's own table ({@link AUTH_ERRORS}), without app augmentations. */
export type CoreErrorCode = keyof typeof AUTH_ERRORS;
