/**
 * `createMemoryPhoneNumberStorage`: users' phone numbers in this process's memory.
 * @module
 */
import type { PhoneNumberRecord, PhoneNumberStorage } from '../types.js';

/**
 * Phone numbers in a `Map` of this process, for tests and the memory adapter (they vanish on restart). The default
 * of `phoneNumber()` on the memory adapter; SQL adapters get `createSqlPhoneNumberStorage` on their own database.
 * @example
 * ```ts
 * import { phoneNumber, createMemoryPhoneNumberStorage } from '@framework/auth/plugins/phone-number';
 *
 * phoneNumber({ storage: createMemoryPhoneNumberStorage(), sendOTP: ({ phoneNumber, code }) => sms.send(phoneNumber, code) });
 * ```
 */
export function createMemoryPhoneNumberStorage(): PhoneNumberStorage {
  const byUser = new Map<string, PhoneNumberRecord>();
  const byNumber = new Map<string, string>();
  const copy = (r: PhoneNumberRecord | undefined) => (r ? { ...r, updatedAt: new Date(r.updatedAt) } : null);
  return {
    async migrate() {},
    async getByUser(userId) {
      return copy(byUser.get(userId));
    },
    async getByNumber(phoneNumber) {
      const userId = byNumber.get(phoneNumber);
      return userId === undefined ? null : copy(byUser.get(userId));
    },
    async set(record) {
      const holder = byNumber.get(record.phoneNumber);
      if (holder !== undefined && holder !== record.userId) return false;
      const before = byUser.get(record.userId);
      if (before) byNumber.delete(before.phoneNumber);
      byUser.set(record.userId, { ...record, updatedAt: new Date(record.updatedAt) });
      byNumber.set(record.phoneNumber, record.userId);
      return true;
    },
    async remove(userId) {
      const before = byUser.get(userId);
      if (!before) return;
      byUser.delete(userId);
      byNumber.delete(before.phoneNumber);
    },
  };
}
