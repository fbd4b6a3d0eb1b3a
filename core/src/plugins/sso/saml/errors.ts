/**
 * The errors of the SAML service provider: one class, one stable code per refusal.
 * @module
 */

/**
 * Every code a {@link SamlError} carries.
 *
 * - `SAML_SIGNATURE_INVALID`: the assertion is not signed by a certificate of the IdP (unsigned, signed by another
 *   key, altered after signing, or more than one assertion in the response), or its issuer is not the IdP.
 * - `SAML_AUDIENCE_MISMATCH`: the assertion's `AudienceRestriction` does not name this SP's entity id.
 * - `SAML_RECIPIENT_MISMATCH`: the response's `Destination` or the bearer confirmation's `Recipient` is not this
 *   SP's ACS URL.
 * - `SAML_EXPIRED`: `NotOnOrAfter` (conditions or bearer confirmation) has passed, beyond the allowed clock skew.
 * - `SAML_NOT_YET_VALID`: `NotBefore` is still ahead, beyond the allowed clock skew.
 * - `SAML_IN_RESPONSE_TO_MISMATCH`: `InResponseTo` names no request this SP made and has not seen answered, or the
 *   response and the assertion name different requests.
 * - `SAML_REPLAYED`: this assertion id was accepted before.
 * - `SAML_IDP_INITIATED_DISABLED`: an unsolicited response (no `InResponseTo`) while IdP-initiated sign-in is off.
 * - `SAML_RESPONSE_INVALID`: no `SAMLResponse`, not base64 XML, not a SAML response, a non-success status, or an
 *   assertion missing what the Web Browser SSO profile requires (NameID, bearer confirmation); an encrypted
 *   assertion this SP cannot or will not decrypt (no decryption key, another key, an algorithm other than AES-GCM
 *   content and RSA-OAEP key transport), or a plain one under `requireEncryptedAssertions`.
 * - `SAML_METADATA_INVALID`: IdP metadata without an entity id, an HTTP-Redirect SSO endpoint or a signing certificate.
 */
export type SamlErrorCode =
  | 'SAML_SIGNATURE_INVALID'
  | 'SAML_AUDIENCE_MISMATCH'
  | 'SAML_RECIPIENT_MISMATCH'
  | 'SAML_EXPIRED'
  | 'SAML_NOT_YET_VALID'
  | 'SAML_IN_RESPONSE_TO_MISMATCH'
  | 'SAML_REPLAYED'
  | 'SAML_IDP_INITIATED_DISABLED'
  | 'SAML_RESPONSE_INVALID'
  | 'SAML_METADATA_INVALID';

const MESSAGES: Readonly<Record<SamlErrorCode, string>> = {
  SAML_SIGNATURE_INVALID: 'The SAML assertion is not signed by the identity provider',
  SAML_AUDIENCE_MISMATCH: 'The SAML assertion is meant for another service provider',
  SAML_RECIPIENT_MISMATCH: 'The SAML response is addressed to another endpoint',
  SAML_EXPIRED: 'The SAML assertion has expired',
  SAML_NOT_YET_VALID: 'The SAML assertion is not valid yet',
  SAML_IN_RESPONSE_TO_MISMATCH: 'The SAML response does not answer a pending sign-in request',
  SAML_REPLAYED: 'The SAML assertion was used already',
  SAML_IDP_INITIATED_DISABLED: 'Sign-in started at the identity provider is not enabled',
  SAML_RESPONSE_INVALID: 'The SAML response is malformed or incomplete',
  SAML_METADATA_INVALID: 'The identity provider metadata is invalid',
};

/**
 * A refused SAML message or metadata document. The message is fixed per code: it never carries the XML, a value
 * from it, or the library's own message.
 * @example
 * ```ts
 * try {
 *   await sp.validatePostResponse(body);
 * } catch (error) {
 *   if (error instanceof SamlError && error.code === 'SAML_REPLAYED') return new Response(null, { status: 400 });
 *   throw error;
 * }
 * ```
 */
export class SamlError extends Error {
  /** The stable code: see {@link SamlErrorCode}. */
  readonly code: SamlErrorCode;

  constructor(code: SamlErrorCode) {
    super(MESSAGES[code]);
    this.name = 'SamlError';
    this.code = code;
  }
}

/** Every {@link SamlErrorCode}, for a caller mapping them to HTTP errors. */
export const SAML_ERROR_CODES = Object.keys(MESSAGES) as readonly SamlErrorCode[];
