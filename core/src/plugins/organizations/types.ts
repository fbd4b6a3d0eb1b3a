/**
 * The invitation records and storage contract of `organizations()`. Organizations and memberships themselves are
 * `@framework/auth/tenant` records (a `TenantStorage`).
 * @module
 */

/** Where an invitation stands. Only `pending` invitations can be accepted, declined, revoked or resent. */
export type InvitationStatus = 'pending' | 'accepted' | 'declined' | 'revoked';

/** An invitation to join an organization. The token is stored only as its SHA-256 hash. */
export interface InvitationRecord {
  id: string;
  organizationId: string;
  /** The invited address, lower-cased. */
  email: string;
  /** The role the invitee gets on accepting. */
  role: string;
  inviterId: string;
  /** Lower-case hex SHA-256 of the token in the invitation link. */
  tokenHash: string;
  status: InvitationStatus;
  expiresAt: Date;
  createdAt: Date;
  /** When the link was last sent (creation or resend). */
  sentAt: Date;
}

/** Where `organizations()` keeps invitations. Every implementation passes `runInvitationStorageConformance`. */
export interface InvitationStorage {
  /** Creates or upgrades the table; idempotent. `auth.migrate()` runs it. */
  migrate(): Promise<void>;
  create(invitation: InvitationRecord): Promise<void>;
  get(id: string): Promise<InvitationRecord | null>;
  findByTokenHash(tokenHash: string): Promise<InvitationRecord | null>;
  /** The invitations of an organization with this status (all when omitted), oldest first. */
  listByOrganization(organizationId: string, status?: InvitationStatus): Promise<InvitationRecord[]>;
  /** The pending invitations sent to `email` (compared lower-cased), oldest first. */
  listPendingByEmail(email: string): Promise<InvitationRecord[]>;
  /**
   * Moves a pending invitation to `status`, atomically: of two concurrent calls, one gets true. False when it
   * is not pending (already used, declined or revoked) or does not exist.
   */
  settle(id: string, status: Exclude<InvitationStatus, 'pending'>): Promise<boolean>;
  /** Replaces the token and the sent time of a pending invitation (a resend); false when it is not pending. */
  renew(id: string, patch: { tokenHash: string; sentAt: Date; expiresAt: Date }): Promise<boolean>;
  /** Deletes every invitation of an organization (it was deleted). */
  deleteByOrganization(organizationId: string): Promise<void>;
}
