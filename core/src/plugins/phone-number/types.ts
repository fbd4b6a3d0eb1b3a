/**
 * The storage of `phoneNumber()`: each user's phone number (E.164) and whether it was proven.
 * @module
 */

/** A user's phone number as stored. */
export interface PhoneNumberRecord {
  userId: string;
  /** E.164 (`+442079460018`), unique across users. */
  phoneNumber: string;
  /** Whether the user proved the number with a code. */
  verified: boolean;
  updatedAt: Date;
}

/** Where users' phone numbers live (memory, or SQL through `createSqlPhoneNumberStorage`). One number per user. */
export interface PhoneNumberStorage {
  /** Creates or upgrades the tables; idempotent. Memory: nothing to do. */
  migrate(): Promise<void>;
  /** The number of `userId`, or null. */
  getByUser(userId: string): Promise<PhoneNumberRecord | null>;
  /** The record holding `phoneNumber` (E.164), or null. */
  getByNumber(phoneNumber: string): Promise<PhoneNumberRecord | null>;
  /**
   * Sets the number of `record.userId` (replacing the one they had). Resolves false, changing nothing, when another
   * user holds `record.phoneNumber`: exactly one of two users racing for one number gets true.
   */
  set(record: PhoneNumberRecord): Promise<boolean>;
  /** Removes the number of `userId`, if any. */
  remove(userId: string): Promise<void>;
}
