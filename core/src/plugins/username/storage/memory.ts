/**
 * `createMemoryUsernameStorage`: usernames in this process's memory.
 * @module
 */
import type { UsernameRecord, UsernameStorage } from './types.js';

interface Row {
  displayUsername: string;
  userId: string | null;
  email: string | null;
  expiresAt: number | null;
}

/**
 * Usernames in a `Map` of this process (the memory adapter's default): for tests and single-instance apps.
 * @example
 * ```ts
 * import { username, createMemoryUsernameStorage } from '@framework/auth/plugins/username';
 * username({ storage: createMemoryUsernameStorage() });
 * ```
 */
export function createMemoryUsernameStorage(): UsernameStorage {
  const rows = new Map<string, Row>();
  const record = (username: string, row: Row): UsernameRecord | null =>
    row.userId === null ? null : { username, displayUsername: row.displayUsername, userId: row.userId };
  const takenAt = (username: string, now: Date, userId?: string) => {
    const row = rows.get(username);
    if (!row) return false;
    if (row.userId === null) return row.expiresAt !== null && row.expiresAt > now.getTime();
    return row.userId !== userId;
  };
  return {
    async migrate() {},
    async find(username) {
      const row = rows.get(username);
      return row ? record(username, row) : null;
    },
    async lookup(username) {
      const row = rows.get(username);
      if (!row) return null;
      return row.userId !== null ? { userId: row.userId } : row.email !== null ? { email: row.email } : null;
    },
    async findByUser(userId) {
      for (const [username, row] of rows) if (row.userId === userId) return record(username, row);
      return null;
    },
    async isFree(username, now, userId) {
      return !takenAt(username, now, userId);
    },
    async assign({ username, displayUsername, userId }, now) {
      if (takenAt(username, now, userId)) return false;
      rows.set(username, { displayUsername, userId, email: null, expiresAt: null });
      for (const [name, row] of rows) if (row.userId === userId && name !== username) rows.delete(name);
      return true;
    },
    async reserve({ username, displayUsername, email, expiresAt }, now) {
      if (takenAt(username, now) && rows.get(username)?.email !== email) return false;
      rows.set(username, { displayUsername, userId: null, email, expiresAt: expiresAt.getTime() });
      return true;
    },
    async bindReservation(email, userId) {
      for (const [username, row] of rows) {
        if (row.userId !== null || row.email !== email) continue;
        rows.set(username, { displayUsername: row.displayUsername, userId, email: null, expiresAt: null });
        for (const [name, other] of rows) if (other.userId === userId && name !== username) rows.delete(name);
        return { username, displayUsername: row.displayUsername, userId };
      }
      return null;
    },
    async dropReservation(username, email) {
      const row = rows.get(username);
      if (row && row.userId === null && row.email === email) rows.delete(username);
    },
    async removeUser(userId) {
      for (const [name, row] of rows) if (row.userId === userId) rows.delete(name);
    },
  };
}
