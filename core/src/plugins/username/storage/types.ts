/**
 * The storage of `username()`: one record per folded username, the key a unique index holds on every adapter.
 * @module
 */

/** A username held by a user. */
export interface UsernameRecord {
  /** The folded name (NFKC, lower case): the unique key. */
  username: string;
  /** The name as the user typed it. */
  displayUsername: string;
  userId: string;
}

/** A name held for a sign-up in progress, until its user exists (then bound to it) or `expiresAt` passes. */
export interface UsernameReservation {
  username: string;
  displayUsername: string;
  /** The sign-up's address, trimmed and lower-cased: the user created with it gets the name. */
  email: string;
  expiresAt: Date;
}

/**
 * Where usernames live. Implementations keep the folded `username` unique (a primary key in SQL), so two users
 * never hold one name whatever the interleaving of requests.
 */
export interface UsernameStorage {
  /** Creates or upgrades the storage (idempotent). */
  migrate(): Promise<void>;
  /** The user holding `username` (folded), or null (also for a name only reserved). */
  find(username: string): Promise<UsernameRecord | null>;
  /**
   * Who `username` (folded) belongs to: the holder's `userId`, or for a name only reserved the sign-up's `email`
   * (live or expired, while nobody took it since); null when nobody holds or reserves it.
   */
  lookup(username: string): Promise<{ userId: string } | { email: string } | null>;
  /** The user's username, or null. */
  findByUser(userId: string): Promise<UsernameRecord | null>;
  /**
   * Whether nobody holds or reserves `username` at `now` (an expired reservation does not count), or it is
   * `userId`'s own.
   */
  isFree(username: string, now: Date, userId?: string): Promise<boolean>;
  /**
   * Gives `record.username` to `record.userId` (their earlier name is released): false when another user holds it
   * or a live reservation does. The user's own name again only updates `displayUsername`.
   */
  assign(record: UsernameRecord, now: Date): Promise<boolean>;
  /**
   * Holds a name for a sign-up: false when a user holds it or a live reservation for another address does. The
   * same address again renews its hold (a sign-up retried after a refused password).
   */
  reserve(reservation: UsernameReservation, now: Date): Promise<boolean>;
  /** Binds the reservation made for `email` to `userId` (live or expired, if nobody took the name since). */
  bindReservation(email: string, userId: string): Promise<UsernameRecord | null>;
  /** Drops a reservation of `username` made for `email`. */
  dropReservation(username: string, email: string): Promise<void>;
  /** Releases every name of `userId` (account deletion). */
  removeUser(userId: string): Promise<void>;
}
