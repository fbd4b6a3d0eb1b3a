/**
 * The records and storage contract of `admin()`.
 * @module
 */

/** A ban: the user cannot sign in while it holds. */
export interface BanRecord {
  userId: string;
  /** Why, as the admin wrote it (shown to the admin, never to the banned user). Null when none was given. */
  reason: string | null;
  /** When the ban lapses by itself; null for a ban until unbanned. */
  expiresAt: Date | null;
  /** The admin who banned. */
  bannedBy: string;
  createdAt: Date;
}

/**
 * Where `admin()` keeps bans. Users, roles and sessions stay in the auth
 * storage adapter; this holds only what the adapter has no column for.
 * Every implementation passes `runAdminStorageConformance`.
 */
export interface AdminStorage {
  /** Creates or upgrades the tables; idempotent. `auth.migrate()` runs it. */
  migrate(): Promise<void>;
  /** The user's ban, expired or not (the caller compares `expiresAt`); null when none. */
  getBan(userId: string): Promise<BanRecord | null>;
  /** The bans of these users (expired ones included), for a page of the user list. */
  getBans(userIds: readonly string[]): Promise<BanRecord[]>;
  /** Creates or replaces the user's ban. */
  setBan(ban: BanRecord): Promise<void>;
  /** Lifts the user's ban; false when there was none. */
  removeBan(userId: string): Promise<boolean>;
}
