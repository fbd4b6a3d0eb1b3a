/**
 * `@framework/auth/plugins/oidc-provider`: the app as an OpenID Provider (`oidcProvider()`), with memory and SQL
 * storage. Apps that do not import it do not load it.
 * @module
 */
export { OIDC_PROVIDER_API, oidcProvider, type CreatedClient, type OidcProviderExtension } from './plugin.js';
export { SUPPORTED_SCOPES, type NewClientInput, type OidcClientOptions, type OidcProviderOptions } from './options.js';
export type { AppWithAccess } from './account.js';
export { ACR_MFA } from './amr.js';
export { OIDC_PROVIDER_ERRORS, type OidcProviderErrorCode } from './errors.js';
export { createMemoryOidcProviderStorage } from './storage/memory.js';
export { createSqlOidcProviderStorage, type SqlOidcProviderStorageOptions } from './storage/sql.js';
export type {
  AuthorizationCodeRecord,
  ConsentRecord,
  GrantRecord,
  OidcClientRecord,
  OidcProviderStorage,
  RefreshTokenRecord,
} from './types.js';
