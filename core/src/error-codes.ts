/**
 * Every error code of `@framework/auth`, with its HTTP status and default
 * message: the one table `AuthError.code` is typed by, the error pages read,
 * and the README's error table is checked against (`error-codes.test.ts`).
 * Plugins add their codes by augmenting {@link AuthErrorCodes}.
 * @module
 */

/** An entry of {@link AUTH_ERRORS}. */
export interface AuthErrorInfo {
  /** The HTTP status the code answers with. */
  readonly status: number;
  /** A client-safe default message. */
  readonly message: string;
}

/** The core's error codes. */
export const AUTH_ERRORS = {
  INVALID_REQUEST: { status: 400, message: 'The request is malformed' },
  VERIFICATION_FAILED: { status: 400, message: 'The link is invalid, used or expired' },
  PASSKEY_VERIFICATION_FAILED: { status: 400, message: 'The passkey could not be verified' },
  OAUTH_CALLBACK_ERROR: { status: 400, message: 'The sign-in with the provider could not be completed' },
  OAUTH_USERINFO_MISMATCH: { status: 400, message: "The provider's UserInfo does not belong to the signed-in subject" },
  NOT_SUPPORTED: { status: 400, message: 'Not supported with this configuration' },
  TOKEN_INVALID: { status: 400, message: 'The link is invalid, used or expired' },
  TWO_FACTOR_NOT_ENABLED: { status: 400, message: 'Two-factor authentication is not set up' },
  NOT_IMPERSONATING: { status: 400, message: 'This session is not an impersonation' },
  UNAUTHENTICATED: { status: 401, message: 'Authentication required' },
  TWO_FACTOR_REQUIRED: { status: 401, message: 'Enter the code from your authenticator app' },
  TWO_FACTOR_INVALID_CODE: { status: 401, message: 'The code is wrong or was already used' },
  TWO_FACTOR_CHALLENGE_INVALID: { status: 401, message: 'The sign-in expired; sign in again' },
  INVALID_CREDENTIALS: { status: 401, message: 'Invalid credentials' },
  SESSION_EXPIRED: { status: 401, message: 'Session expired' },
  CREDENTIAL_REFUSED: { status: 401, message: "This credential's account may not act (suspended or removed)" },
  ACCESS_TOKEN_EXPIRED: { status: 401, message: 'The access token expired and could not be refreshed' },
  OAUTH_REFRESH_FAILED: { status: 401, message: 'The access token could not be refreshed' },
  FORBIDDEN: { status: 403, message: 'Forbidden' },
  ACCESS_DENIED: { status: 403, message: 'Sign-in was denied' },
  CSRF_ORIGIN_MISMATCH: { status: 403, message: 'Cross-site request refused' },
  CSRF_TOKEN_INVALID: { status: 403, message: 'Missing or invalid CSRF token' },
  SESSION_NOT_FRESH: { status: 403, message: 'Sign in again, or confirm your password' },
  EMAIL_NOT_VERIFIED: { status: 403, message: 'Verify your email address first' },
  USER_BANNED: { status: 403, message: 'This account is suspended' },
  CANNOT_IMPERSONATE_ADMIN: { status: 403, message: 'Admins cannot be impersonated' },
  IMPERSONATION_RESTRICTED: { status: 403, message: 'An admin acting as this user cannot do this' },
  API_KEY_NOT_ALLOWED: { status: 403, message: 'This cannot be used with an API key; sign in instead' },
  INVITATION_EMAIL_MISMATCH: { status: 403, message: 'This invitation was sent to another address' },
  LINK_ACCOUNT_MISMATCH: { status: 403, message: 'This link belongs to another account' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  PROVIDER_NOT_FOUND: { status: 404, message: 'Unknown provider' },
  TENANT_NOT_FOUND: { status: 404, message: 'Unknown tenant' },
  USER_NOT_FOUND: { status: 404, message: 'No such user' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed' },
  EMAIL_TAKEN: { status: 409, message: 'An account with this email already exists' },
  TWO_FACTOR_ALREADY_ENABLED: { status: 409, message: 'Two-factor authentication is already on' },
  LAST_OWNER: { status: 409, message: 'An organization needs an owner' },
  ALREADY_MEMBER: { status: 409, message: 'This person is a member already' },
  SLUG_TAKEN: { status: 409, message: 'This slug is taken' },
  LAST_CREDENTIAL: { status: 409, message: 'This is the last way to sign in to the account' },
  OAUTH_ACCOUNT_NOT_LINKED: {
    status: 409,
    message: 'This account is not linked to the existing user with the same email',
  },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported content type' },
  RATE_LIMITED: { status: 429, message: 'Too many attempts; try again later' },
  TWO_FACTOR_TOO_MANY_ATTEMPTS: { status: 429, message: 'Too many codes tried; sign in again' },
  TWO_FACTOR_LOCKED: { status: 429, message: 'Too many wrong codes; try again later' },
  INVALID_CONFIG: { status: 500, message: 'Invalid auth configuration' },
  INTERNAL_ERROR: { status: 500, message: 'Internal error' },
  CALLBACK_ERROR: { status: 500, message: 'A callback failed' },
  OAUTH_SIGNIN_ERROR: { status: 502, message: 'The provider could not be reached' },
  OAUTH_USERINFO_FAILED: { status: 502, message: "The provider's UserInfo could not be read" },
  EMAIL_SEND_FAILED: { status: 502, message: 'The email could not be sent' },
  EMAIL_SIGNIN_ERROR: { status: 502, message: 'The sign-in email could not be sent' },
  RATE_LIMIT_UNAVAILABLE: { status: 503, message: 'Sign-in is briefly unavailable; try again shortly' },
  STORAGE_UNAVAILABLE: { status: 503, message: 'Storage unavailable' },
} as const satisfies Record<string, AuthErrorInfo>;

/**
 * The codes `AuthError.code` may hold. An interface, so a plugin can add
 * its own:
 * @example
 * ```ts
 * declare module '@framework/auth' {
 *   interface AuthErrorCodes { TWO_FACTOR_REQUIRED: true }
 * }
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging: plugins augment it
export interface AuthErrorCodes extends Record<keyof typeof AUTH_ERRORS, true> {}

/** A code of {@link AuthErrorCodes}. */
export type AuthErrorCode = keyof AuthErrorCodes & string;

/** The status of a core code, or 500 for a code the table does not know (a plugin's without a status). */
export function statusOf(code: string): number {
  return Object.hasOwn(AUTH_ERRORS, code) ? AUTH_ERRORS[code as keyof typeof AUTH_ERRORS].status : 500;
}
