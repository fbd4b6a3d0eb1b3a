/**
 * `@framework/auth/plugins/api-keys`: per-user API keys (`apiKeys()`), with
 * memory and SQL storage. Apps that do not import it do not load it.
 * @module
 */
export { apiKeys, type ApiKeysExtension } from './plugin.js';
export type { ApiKeysOptions } from './options.js';
export { createMemoryApiKeyStorage } from './storage/memory.js';
export { createSqlApiKeyStorage, type SqlApiKeyStorageOptions } from './storage/sql.js';
export type { ApiKeyInfo, ApiKeyRecord, ApiKeySession, ApiKeyStorage } from './types.js';
export { isApiKeySession } from './session.js';
