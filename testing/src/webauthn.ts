/**
 * `@framework/testing/webauthn`: a software passkey for tests of the kit's passkey routes (Node only).
 * @module
 */
export {
  SoftAuthenticator,
  type SoftAuthenticationOptions,
  type SoftAuthenticationResponse,
  type SoftRegistrationOptions,
  type SoftRegistrationResponse,
} from './webauthn/soft-authenticator.js';
