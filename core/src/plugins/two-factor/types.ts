/**
 * The records and the storage interface of `twoFactor()`.
 * @module
 */

/** A user's TOTP enrolment. */
export interface TwoFactorRecord {
  userId: string;
  /** The TOTP key, encrypted (AES-256-GCM under a key derived from the auth `secret`); never the plain key. */
  secret: string;
  /** False from `POST /two-factor/enable` until a first valid code confirms the enrolment. */
  enabled: boolean;
  /**
   * The last RFC 6238 time step a code was accepted for (`floor(unixSeconds / period)`), or null. A code for this
   * step or an earlier one is refused (RFC 6238 §5.2: a code is accepted once).
   */
  lastUsedStep: number | null;
  createdAt: Date;
  enabledAt: Date | null;
}

/** A browser trusted to skip the second factor (the trust cookie holds `id.secret`). */
export interface TrustedDeviceRecord {
  /** Public id (the cookie's first half), random. */
  id: string;
  userId: string;
  /** SHA-256 (hex) of the cookie's secret half. */
  secretHash: string;
  /** The browser's `User-Agent` when it was trusted (cut to 256 characters), to show in a list. */
  userAgent: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * Where `twoFactor()` keeps its records: `createSqlTwoFactorStorage(db)` (SQLite or PostgreSQL) in production,
 * `createMemoryTwoFactorStorage()` in tests. Every single-use operation (`useStep`, `useBackupCode`,
 * `consumeChallenge`) is atomic, so two concurrent requests with one code cannot both succeed.
 */
export interface TwoFactorStorage {
  /** Creates or upgrades the tables; idempotent. `auth.migrate()` runs it. */
  migrate(): Promise<void>;
  get(userId: string): Promise<TwoFactorRecord | null>;
  /** Creates or replaces the user's enrolment (a new enrolment starts unconfirmed). */
  put(record: TwoFactorRecord): Promise<void>;
  /** Marks the enrolment confirmed. False when there is none. */
  enable(userId: string, at: Date): Promise<boolean>;
  /** Removes the enrolment, the backup codes and the trusted devices of `userId`. */
  remove(userId: string): Promise<void>;
  /** Records `step` as used when it is later than `lastUsedStep`; false otherwise (a replay) or with no enrolment. */
  useStep(userId: string, step: number): Promise<boolean>;
  /** Replaces the user's backup codes with these SHA-256 hashes (hex). */
  setBackupCodes(userId: string, hashes: readonly string[]): Promise<void>;
  /** Removes the code with this hash; true when it existed (it is now spent). */
  useBackupCode(userId: string, hash: string): Promise<boolean>;
  countBackupCodes(userId: string): Promise<number>;
  addTrustedDevice(record: TrustedDeviceRecord): Promise<void>;
  findTrustedDevice(id: string): Promise<TrustedDeviceRecord | null>;
  /** The user's trusted devices not yet expired, oldest first. */
  listTrustedDevices(userId: string, now: Date): Promise<TrustedDeviceRecord[]>;
  /** Removes one trusted device of `userId` (by id), or all of them; returns how many went. */
  removeTrustedDevices(userId: string, id?: string): Promise<number>;
  /**
   * Counts one verification attempt against the sign-in challenge `id` and returns the count so far (1 for the
   * first). A consumed challenge answers `Infinity`. Rows expire at `expiresAt`.
   */
  challengeAttempt(id: string, expiresAt: Date): Promise<number>;
  /** Marks the challenge used; false when it already was (a replayed challenge cookie). */
  consumeChallenge(id: string, expiresAt: Date): Promise<boolean>;
}
