/**
 * `createMemoryApiKeyStorage`: API keys in a process's memory.
 * @module
 */
import { StorageConflictError } from '../../../storage/types.js';
import type { ApiKeyRecord, ApiKeyStorage } from '../types.js';

const copy = (r: ApiKeyRecord): ApiKeyRecord => ({
  ...r,
  permissions: r.permissions && [...r.permissions],
  roles: r.roles && [...r.roles],
});

/**
 * API keys kept in memory: for tests and single-process development. Keys
 * vanish on restart; use {@link createSqlApiKeyStorage} in production.
 * @example
 * ```ts
 * createAuth({ ...config, plugins: [apiKeys({ storage: createMemoryApiKeyStorage() })] });
 * ```
 */
export function createMemoryApiKeyStorage(): ApiKeyStorage {
  const byId = new Map<string, ApiKeyRecord>();
  const byPrefix = new Map<string, ApiKeyRecord>();
  return {
    async migrate() {},
    async create(record) {
      if (byId.has(record.id)) throw new StorageConflictError('An API key with this id exists', 'id');
      if (byPrefix.has(record.prefix)) throw new StorageConflictError('An API key with this prefix exists', 'prefix');
      const stored = copy(record);
      byId.set(stored.id, stored);
      byPrefix.set(stored.prefix, stored);
    },
    async findByPrefix(prefix) {
      const found = byPrefix.get(prefix);
      return found ? copy(found) : null;
    },
    async listByUser(userId) {
      return [...byId.values()]
        .filter((r) => r.userId === userId)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
        .map(copy);
    },
    async revoke(id, userId, at) {
      const found = byId.get(id);
      if (!found || found.userId !== userId || found.revokedAt) return false;
      found.revokedAt = new Date(at.getTime());
      return true;
    },
  };
}
