/**
 * `@framework/auth/plugins/sso`: enterprise single sign-on per organization (OIDC, SAML 2.0), with domains proven
 * by DNS TXT records and just-in-time provisioning.
 * @module
 */
export { sso, type SsoExtension } from './plugin.js';
export type { SsoOptions, ResolveTxt } from './options.js';
export type { LookupAddresses } from './issuer-policy.js';
export type { SamlKeyPair, SamlSpKeys } from './saml/types.js';
export { SSO_ERRORS, type SsoErrorCode } from './errors.js';
export { TXT_LABEL } from './domains.js';
export type {
  SsoDomainRecord,
  SsoOnceKind,
  SsoProviderRecord,
  SsoProviderType,
  SsoRoleMapping,
  SsoStorage,
  StoredOidcConfig,
  StoredSamlConfig,
} from './types.js';
export { createMemorySsoStorage } from './storage/memory.js';
export { createSqlSsoStorage, type SqlSsoStorageOptions } from './storage/sql.js';
