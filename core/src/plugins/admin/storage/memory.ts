/**
 * `createMemoryAdminStorage`: bans in process memory, for tests and single-process demos.
 * @module
 */
import type { AdminStorage, BanRecord } from '../types.js';

const copy = (ban: BanRecord): BanRecord => ({
  ...ban,
  createdAt: new Date(ban.createdAt.getTime()),
  expiresAt: ban.expiresAt ? new Date(ban.expiresAt.getTime()) : null,
});

/**
 * An {@link AdminStorage} in a `Map`: lost on restart and not shared between processes, so use
 * `createSqlAdminStorage` in production.
 * @example
 * ```ts
 * import { admin, createMemoryAdminStorage } from '@framework/auth/plugins/admin';
 * createAuth({ ...config, plugins: [admin({ storage: createMemoryAdminStorage() })] });
 * ```
 */
export function createMemoryAdminStorage(): AdminStorage {
  const bans = new Map<string, BanRecord>();
  return {
    async migrate() {},
    async getBan(userId) {
      const ban = bans.get(userId);
      return ban ? copy(ban) : null;
    },
    async getBans(userIds) {
      return userIds.flatMap((id) => {
        const ban = bans.get(id);
        return ban ? [copy(ban)] : [];
      });
    },
    async setBan(ban) {
      bans.set(ban.userId, copy(ban));
    },
    async removeBan(userId) {
      return bans.delete(userId);
    },
  };
}
