/**
 * The storage of one-time codes: one live code per key (purpose, channel and address), stored as a keyed hash.
 * @module
 */

/** A code as stored: never the code itself, only its HMAC-SHA-256 under the auth secret. */
export interface OtpRecord {
  /** The code's key: the SHA-256 (hex) of `channel:purpose:address`, so no address is stored in the clear. */
  id: string;
  /** HMAC-SHA-256 (hex) of the key and the code. */
  codeHash: string;
  /** Tries counted so far. */
  attempts: number;
  expiresAt: Date;
}

/** Where one-time codes live (memory, or SQL through `createSqlOtpStorage`). Every method is atomic per key. */
export interface OtpStorage {
  /** Creates or upgrades the tables; idempotent. Memory: nothing to do. */
  migrate(): Promise<void>;
  /** Stores a fresh code under `id` with no tries counted; an earlier code of that key stops working. Drops expired codes. */
  put(record: { id: string; codeHash: string; expiresAt: Date }): Promise<void>;
  /**
   * Counts one try at the live code under `id`. Returns its hash and the tries counted, this one included; null
   * when there is no code or it expired by `now`.
   */
  attempt(id: string, now: Date): Promise<{ codeHash: string; attempts: number } | null>;
  /** Removes the code under `id` when it is still `codeHash`: true for exactly one caller. */
  consume(id: string, codeHash: string): Promise<boolean>;
  /** Removes the code under `id`, if any. */
  remove(id: string): Promise<void>;
}
