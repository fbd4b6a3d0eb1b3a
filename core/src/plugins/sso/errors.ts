/**
 * The error codes of `sso()`, declared with `defineErrorCodes`.
 * @module
 */
import { defineErrorCodes, type AuthError, type ErrorCodesOf, type ErrorDetail } from '../../plugin-kit.js';

/**
 * Every code `sso()` raises: `{ status, message }` by code.
 *
 * - `SSO_PROVIDER_NOT_FOUND` (404): no provider has this id (or it belongs to an organization the caller does not
 *   manage).
 * - `SSO_PROVIDER_EXISTS` (409): a provider with this id exists already.
 * - `SSO_PROVIDER_INVALID` (400): the provider settings are incomplete or malformed (issuer, client id or secret,
 *   metadata, role mapping), or the `metadataUrl` did not answer 2xx with IdP metadata of at most 256 KiB in 10 s.
 * - `SSO_NO_PROVIDER` (404): `POST /sso/sign-in` found no provider: the email's domain is not verified by any
 *   organization, or the organization has no provider.
 * - `SSO_ISSUER_NOT_ALLOWED` (400): the issuer is not `https:`, or its host is or resolves to a loopback, private,
 *   link-local, unique-local, CGNAT, multicast, reserved or unspecified address (unless `allowPrivateIssuers`);
 *   the same for every endpoint its discovery document names (token, UserInfo, JWKS), checked before each request,
 *   and for a SAML `metadataUrl` at registration, before it is fetched.
 *   At the callback, browsers go to the error page with `error=OAuthCallbackError`.
 * - `SSO_DOMAIN_INVALID` (400): not a domain name.
 * - `SSO_DOMAIN_LIMIT` (409): the organization holds `maxDomains` domain claims already.
 * - `SSO_DOMAIN_NOT_CLAIMED` (404): the organization has not claimed this domain.
 * - `SSO_DOMAIN_UNVERIFIED` (400): no TXT record at `_framework-sso.<domain>` carries the claim's token.
 * - `SSO_DOMAIN_TAKEN` (409): another organization holds the domain verified.
 * - `SSO_SAML_UNAVAILABLE` (501): SAML providers are not available in this build.
 * - `SSO_SAML_REJECTED` (400): the SAML response failed validation (signature, audience, recipient, time,
 *   `InResponseTo`, replay); the log names the reason, the answer does not.
 * @example
 * ```ts
 * import { SSO_ERRORS } from '@framework/auth/plugins/sso';
 * const status = SSO_ERRORS.codes.SSO_DOMAIN_TAKEN.status; // 409
 * ```
 */
export const SSO_ERRORS = /* @__PURE__ */ defineErrorCodes({
  SSO_PROVIDER_NOT_FOUND: { status: 404, message: 'No such identity provider' },
  SSO_PROVIDER_EXISTS: { status: 409, message: 'An identity provider with this id exists already' },
  SSO_PROVIDER_INVALID: { status: 400, message: 'The identity provider settings are not valid' },
  SSO_NO_PROVIDER: { status: 404, message: 'Single sign-on is not set up for this account' },
  SSO_ISSUER_NOT_ALLOWED: {
    status: 400,
    message: 'The identity provider address is not allowed',
    page: 'OAuthCallbackError',
  },
  SSO_DOMAIN_INVALID: { status: 400, message: 'That is not a domain name' },
  SSO_DOMAIN_LIMIT: { status: 409, message: 'The organization has claimed as many domains as it may' },
  SSO_DOMAIN_NOT_CLAIMED: { status: 404, message: 'The organization has not claimed this domain' },
  SSO_DOMAIN_UNVERIFIED: { status: 400, message: 'The DNS TXT record with the verification token was not found' },
  SSO_DOMAIN_TAKEN: { status: 409, message: 'Another organization has verified this domain' },
  SSO_SAML_UNAVAILABLE: { status: 501, message: 'SAML single sign-on is not available' },
  SSO_SAML_REJECTED: { status: 400, message: 'The single sign-on response was refused', page: 'OAuthCallbackError' },
});

/** A code of {@link SSO_ERRORS}. */
export type SsoErrorCode = ErrorCodesOf<typeof SSO_ERRORS>;

/** The `AuthError` for `code` from {@link SSO_ERRORS}. */
export function ssoError(code: SsoErrorCode, detail?: ErrorDetail): AuthError {
  return SSO_ERRORS.error(code, detail);
}

// The codes are members of `AuthErrorCode`, as the other built-in plugins' codes are.
declare module '../../error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface AuthErrorCodes extends Record<SsoErrorCode, true> {}
}
