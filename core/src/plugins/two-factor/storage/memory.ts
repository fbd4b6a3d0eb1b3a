/**
 * `createMemoryTwoFactorStorage`: two-factor records in process memory, for tests and single-process demos.
 * @module
 */
import type { TrustedDeviceRecord, TwoFactorRecord, TwoFactorStorage } from '../types.js';

/**
 * A {@link TwoFactorStorage} in a few `Map`s: lost on restart and not shared between processes, so use
 * `createSqlTwoFactorStorage` in production. Expired challenges are dropped as new ones arrive.
 * @example
 * ```ts
 * import { twoFactor, createMemoryTwoFactorStorage } from '@framework/auth/plugins/two-factor';
 * createAuth({ ...config, plugins: [twoFactor({ storage: createMemoryTwoFactorStorage() })] });
 * ```
 */
export function createMemoryTwoFactorStorage(): TwoFactorStorage {
  const records = new Map<string, TwoFactorRecord>();
  const codes = new Map<string, Set<string>>();
  const devices = new Map<string, TrustedDeviceRecord>();
  const challenges = new Map<string, { attempts: number; consumed: boolean; expiresAt: number }>();
  const copy = (r: TwoFactorRecord): TwoFactorRecord => ({ ...r });

  function challenge(id: string, expiresAt: Date) {
    const now = Date.now();
    for (const [key, c] of challenges) if (c.expiresAt <= now) challenges.delete(key);
    let c = challenges.get(id);
    if (!c) challenges.set(id, (c = { attempts: 0, consumed: false, expiresAt: expiresAt.getTime() }));
    return c;
  }

  return {
    async migrate() {},
    async get(userId) {
      const r = records.get(userId);
      return r ? copy(r) : null;
    },
    async put(record) {
      records.set(record.userId, copy(record));
    },
    async enable(userId, at) {
      const r = records.get(userId);
      if (!r) return false;
      r.enabled = true;
      r.enabledAt = at;
      return true;
    },
    async remove(userId) {
      records.delete(userId);
      codes.delete(userId);
      for (const [id, d] of devices) if (d.userId === userId) devices.delete(id);
    },
    async useStep(userId, step) {
      const r = records.get(userId);
      if (!r || (r.lastUsedStep !== null && r.lastUsedStep >= step)) return false;
      r.lastUsedStep = step;
      return true;
    },
    async setBackupCodes(userId, hashes) {
      codes.set(userId, new Set(hashes));
    },
    async useBackupCode(userId, hash) {
      return codes.get(userId)?.delete(hash) ?? false;
    },
    async countBackupCodes(userId) {
      return codes.get(userId)?.size ?? 0;
    },
    async addTrustedDevice(record) {
      devices.set(record.id, { ...record });
    },
    async findTrustedDevice(id) {
      const d = devices.get(id);
      return d ? { ...d } : null;
    },
    async listTrustedDevices(userId, now) {
      return [...devices.values()]
        .filter((d) => d.userId === userId && d.expiresAt > now)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
        .map((d) => ({ ...d }));
    },
    async removeTrustedDevices(userId, id) {
      let n = 0;
      for (const [key, d] of devices) {
        if (d.userId === userId && (id === undefined || key === id)) {
          devices.delete(key);
          n += 1;
        }
      }
      return n;
    },
    async challengeAttempt(id, expiresAt) {
      const c = challenge(id, expiresAt);
      if (c.consumed) return Number.POSITIVE_INFINITY;
      c.attempts += 1;
      return c.attempts;
    },
    async consumeChallenge(id, expiresAt) {
      const c = challenge(id, expiresAt);
      if (c.consumed) return false;
      c.consumed = true;
      return true;
    },
  };
}
