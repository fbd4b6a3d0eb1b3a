/**
 * `@framework/auth/plugins/organizations`: organizations with invitations, members and roles.
 * @module
 */
export { ORGANIZATION_ERRORS } from './errors.js';
export { organizations, type OrganizationsExtension } from './plugin.js';
export { organizationsAccess, type OrganizationsAccess } from './access.js';
export type { OrganizationsOptions, InvitationMail } from './options.js';
export { ACTIVE_ORGANIZATION_COOKIE } from './active.js';
export type { Membership } from './guards.js';
export type { InvitationRecord, InvitationStatus, InvitationStorage } from './types.js';
export { createMemoryInvitationStorage } from './storage/memory.js';
export { createSqlInvitationStorage, type SqlInvitationStorageOptions } from './storage/sql.js';
