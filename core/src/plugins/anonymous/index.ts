/**
 * `@framework/auth/plugins/anonymous`: guest sessions without credentials, linked to the account the guest later
 * signs up or in with.
 * @module
 */
export { anonymous, GUEST_REFUSED_ROUTES, type AnonymousExtension } from './plugin.js';
export type { AnonymousLink, AnonymousOptions } from './options.js';
export { ANONYMOUS_ERRORS, type AnonymousErrorCode } from './errors.js';
export type { AnonymousStorage } from './storage/types.js';
export { createMemoryAnonymousStorage } from './storage/memory.js';
export { createSqlAnonymousStorage, type SqlAnonymousStorageOptions } from './storage/sql.js';
