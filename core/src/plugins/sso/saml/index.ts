/**
 * The SAML 2.0 service provider used by `sso()`: IdP metadata, AuthnRequest, response validation, stores.
 * Only the sso subpath imports this folder (it brings in @node-saml/node-saml).
 * @module
 */
export { createSamlServiceProvider } from './service-provider.js';
export { parseIdpMetadata } from './metadata.js';
export { createMemorySamlStores } from './stores.js';
export { checkSamlSpKeys } from './keys.js';
export { SamlError, SAML_ERROR_CODES, type SamlErrorCode } from './errors.js';
export type {
  SamlIdpConfig,
  SamlKeyPair,
  SamlSpKeys,
  SamlProfile,
  SamlReplayStore,
  SamlRequestStore,
  SamlServiceProviderOptions,
} from './types.js';
