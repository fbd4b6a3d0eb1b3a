/**
 * `@framework/auth/plugins/admin`: user management, bans and impersonation.
 * @module
 */
export { ADMIN_ERRORS } from './errors.js';
export { admin, type AdminExtension } from './plugin.js';
export type { AdminOptions } from './options.js';
export type { AdminStorage, BanRecord } from './types.js';
export { createMemoryAdminStorage } from './storage/memory.js';
export { createSqlAdminStorage, type SqlAdminStorageOptions } from './storage/sql.js';
