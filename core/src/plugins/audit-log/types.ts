/**
 * The records and storage contract of `auditLog()`.
 * @module
 */

/** One security event as the audit log keeps it. */
export interface AuditEntry {
  /** Random id (UUID). */
  id: string;
  /** The event name, e.g. `onSignIn`, `onUserBanned`. */
  type: string;
  /** When it happened (millisecond precision). */
  at: Date;
  /** The user the event is about (the signed-in, banned or impersonated user); null when unknown (a failed sign-in). */
  userId: string | null;
  /** Who did it: the admin (`admin()`) or acting member (`organizations()`), otherwise the user; null when unknown. */
  actorId: string | null;
  ip: string | null;
  userAgent: string | null;
  /** The request id of the event (W3C trace id or a UUID). */
  requestId: string;
  /** The event's other fields, JSON-safe and free of secrets (provider, reason, identifier, role, …). */
  data: Record<string, string | number | boolean | null>;
}

/** A page query of {@link AuditStorage.list}. Entries come newest first. */
export interface AuditQuery {
  userId?: string;
  type?: string;
  /** Entries at or after this time. */
  from?: Date;
  /** Entries before this time. */
  to?: Date;
  /** 1–200. Default 50. */
  limit?: number;
  /** The `next` cursor of the previous page. */
  before?: string;
}

/** One page of entries, newest first; `next` is the cursor of the following page, null on the last. */
export interface AuditPage {
  entries: AuditEntry[];
  next: string | null;
}

/**
 * Where `auditLog()` writes. Append-only: entries are never changed; `purge` drops those older than a
 * retention horizon. Every implementation passes `runAuditStorageConformance`.
 */
export interface AuditStorage {
  /** Creates or upgrades the table; idempotent. `auth.migrate()` runs it. */
  migrate(): Promise<void>;
  append(entry: AuditEntry): Promise<void>;
  list(query: AuditQuery): Promise<AuditPage>;
  /** Deletes entries before `before`; returns how many. */
  purge(before: Date): Promise<number>;
}
