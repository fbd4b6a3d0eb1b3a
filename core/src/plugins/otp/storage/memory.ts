/**
 * `createMemoryOtpStorage`: one-time codes in this process's memory.
 * @module
 */
import type { OtpRecord, OtpStorage } from '../types.js';

/**
 * One-time codes in a `Map` of this process: for tests and single-instance apps (codes vanish on restart, and
 * several instances would each keep their own). Use `createSqlOtpStorage` otherwise.
 * @example
 * ```ts
 * import { emailOTP } from '@framework/auth/plugins/email-otp';
 * import { createMemoryOtpStorage } from '@framework/auth/plugins/otp';
 *
 * emailOTP({ storage: createMemoryOtpStorage(), sendVerificationOTP: ({ email, otp }) => mailer.send(email, otp) });
 * ```
 */
export function createMemoryOtpStorage(): OtpStorage {
  const codes = new Map<string, OtpRecord>();
  return {
    async migrate() {},
    async put({ id, codeHash, expiresAt }) {
      const now = Date.now();
      for (const [key, record] of codes) if (record.expiresAt.getTime() <= now) codes.delete(key);
      codes.set(id, { id, codeHash, attempts: 0, expiresAt: new Date(expiresAt) });
    },
    async attempt(id, now) {
      const record = codes.get(id);
      if (!record || record.expiresAt.getTime() <= now.getTime()) return null;
      record.attempts += 1;
      return { codeHash: record.codeHash, attempts: record.attempts };
    },
    async consume(id, codeHash) {
      if (codes.get(id)?.codeHash !== codeHash) return false;
      codes.delete(id);
      return true;
    },
    async remove(id) {
      codes.delete(id);
    },
  };
}
