/**
 * `@framework/auth/plugins/audit-log`: an append-only log of every security event.
 * @module
 */
export { auditLog, type AuditLogOptions, type AuditLogExtension, type AuditQueue } from './plugin.js';
export type { AuditEntry, AuditQuery, AuditPage, AuditStorage } from './types.js';
export { createMemoryAuditStorage } from './storage/memory.js';
export { createSqlAuditStorage, type SqlAuditStorageOptions } from './storage/sql.js';
