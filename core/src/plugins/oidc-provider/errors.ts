/**
 * The error codes of `oidcProvider()` for the browser-facing routes (the authorize step, consent, the account's
 * app list), declared with `defineErrorCodes`. The token, revocation, introspection and UserInfo endpoints answer
 * the RFC 6749 §5.2 / RFC 6750 §3.1 shape instead (`{ error, error_description }`), as OAuth clients expect.
 * @module
 */
import { defineErrorCodes, type AuthError, type ErrorCodesOf, type ErrorDetail } from '../../plugin-kit.js';

/**
 * Every code `oidcProvider()` raises on its pages: `{ status, message }` by code.
 *
 * - `OIDC_CLIENT_UNKNOWN` (400): the authorization request names no registered client; shown as an error page,
 *   never redirected (RFC 6749 §4.1.2.1).
 * - `OIDC_REDIRECT_URI_INVALID` (400): `redirect_uri` is missing or not one the client registered exactly; shown
 *   as an error page, never redirected (no open redirect).
 * - `OIDC_REQUEST_INVALID` (400): a consent or end-session form that does not match a live request.
 * - `OIDC_CONSENT_NOT_FOUND` (404): revoking access for an app the user never allowed.
 * @example
 * ```ts
 * import { OIDC_PROVIDER_ERRORS } from '@framework/auth/plugins/oidc-provider';
 * const status = OIDC_PROVIDER_ERRORS.codes.OIDC_CLIENT_UNKNOWN.status; // 400
 * ```
 */
export const OIDC_PROVIDER_ERRORS = /* @__PURE__ */ defineErrorCodes({
  OIDC_CLIENT_UNKNOWN: { status: 400, message: 'This application is not registered' },
  OIDC_REDIRECT_URI_INVALID: {
    status: 400,
    message: 'This application asked to return to an address it did not register',
  },
  OIDC_REQUEST_INVALID: { status: 400, message: 'This request is not valid; start again from the application' },
  OIDC_CONSENT_NOT_FOUND: { status: 404, message: 'This application has no access to revoke' },
});

/** A code of {@link OIDC_PROVIDER_ERRORS}. */
export type OidcProviderErrorCode = ErrorCodesOf<typeof OIDC_PROVIDER_ERRORS>;

/** The `AuthError` for `code` from {@link OIDC_PROVIDER_ERRORS}. */
export function oidcError(code: OidcProviderErrorCode, detail?: ErrorDetail): AuthError {
  return OIDC_PROVIDER_ERRORS.error(code, detail);
}

// The codes are members of `AuthErrorCode`, as the other built-in plugins' codes are.
declare module '../../error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface AuthErrorCodes extends Record<OidcProviderErrorCode, true> {}
}
