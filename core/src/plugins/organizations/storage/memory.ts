/**
 * `createMemoryInvitationStorage`: invitations in process memory, for tests and single-process demos.
 * @module
 */
import type { InvitationRecord, InvitationStorage } from '../types.js';

const copy = (r: InvitationRecord): InvitationRecord => ({
  ...r,
  expiresAt: new Date(r.expiresAt.getTime()),
  createdAt: new Date(r.createdAt.getTime()),
  sentAt: new Date(r.sentAt.getTime()),
});
const oldestFirst = (a: InvitationRecord, b: InvitationRecord) => a.createdAt.getTime() - b.createdAt.getTime();

/**
 * An {@link InvitationStorage} in a `Map`: lost on restart, so use `createSqlInvitationStorage` in production.
 * @example
 * ```ts
 * import { organizations, createMemoryInvitationStorage } from '@framework/auth/plugins/organizations';
 * organizations({ tenants, invitations: createMemoryInvitationStorage(), sendInvitation });
 * ```
 */
export function createMemoryInvitationStorage(): InvitationStorage {
  const rows = new Map<string, InvitationRecord>();
  return {
    async migrate() {},
    async create(invitation) {
      if (rows.has(invitation.id)) throw new Error(`Invitation ${invitation.id} exists`);
      rows.set(invitation.id, copy({ ...invitation, email: invitation.email.toLowerCase() }));
    },
    async get(id) {
      const row = rows.get(id);
      return row ? copy(row) : null;
    },
    async findByTokenHash(tokenHash) {
      for (const row of rows.values()) if (row.tokenHash === tokenHash) return copy(row);
      return null;
    },
    async listByOrganization(organizationId, status) {
      return [...rows.values()]
        .filter((r) => r.organizationId === organizationId && (status === undefined || r.status === status))
        .sort(oldestFirst)
        .map(copy);
    },
    async listPendingByEmail(email) {
      const lower = email.toLowerCase();
      return [...rows.values()]
        .filter((r) => r.email === lower && r.status === 'pending')
        .sort(oldestFirst)
        .map(copy);
    },
    async settle(id, status) {
      const row = rows.get(id);
      if (!row || row.status !== 'pending') return false;
      row.status = status;
      return true;
    },
    async renew(id, patch) {
      const row = rows.get(id);
      if (!row || row.status !== 'pending') return false;
      Object.assign(row, copy({ ...row, ...patch }));
      return true;
    },
    async deleteByOrganization(organizationId) {
      for (const [id, row] of rows) if (row.organizationId === organizationId) rows.delete(id);
    },
  };
}
