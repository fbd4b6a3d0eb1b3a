/**
 * Where `anonymous()` records which users are guests.
 * @module
 */

/** The guest marks: one record per guest user id. Every implementation passes the conformance suite. */
export interface AnonymousStorage {
  /** Creates or upgrades the storage (idempotent); `auth.migrate()` runs it. */
  migrate(): Promise<void>;
  /** Marks `userId` as a guest, created at `createdAt`. Marking a guest again changes nothing. */
  mark(userId: string, createdAt: Date): Promise<void>;
  /** Whether `userId` is marked as a guest. */
  isAnonymous(userId: string): Promise<boolean>;
  /** Removes the mark of `userId` (nothing when there is none). */
  remove(userId: string): Promise<void>;
}
