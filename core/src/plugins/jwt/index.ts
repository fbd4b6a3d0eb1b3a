/**
 * `@framework/auth/plugins/jwt`: access tokens for other services. The
 * `jwt()` plugin issues short-lived signed tokens (`GET /token`) and
 * publishes their public keys (`GET /jwks`); `verifyAccessToken` checks
 * them on a resource server. An app that does not import this entry does
 * not load it.
 * @module
 */
export {
  jwt,
  type JwtPluginOptions,
  type JwtExtension,
  type IssuedAccessToken,
  type SignAccessTokenOptions,
} from './plugin.js';
export {
  verifyAccessToken,
  ACCESS_TOKEN_TYPE,
  type VerifyAccessTokenOptions,
  type AccessTokenClaims,
  type AccessTokenActor,
} from './verify.js';
export { createMemoryJwksStorage } from './storage/memory.js';
export { createSqlJwksStorage, type SqlJwksStorageOptions } from './storage/sql.js';
export type { JwksStorage, StoredSigningKey, JwtSigningAlgorithm } from './storage/types.js';
