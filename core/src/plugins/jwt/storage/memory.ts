/**
 * `createMemoryJwksStorage`: signing keys in process memory.
 * @module
 */
import type { JwksStorage, StoredSigningKey } from './types.js';

/**
 * Creates a key storage kept in memory, for tests and single-process demos.
 * Keys die with the process, so every restart rotates to a new key and
 * tokens signed before it no longer verify: use `createSqlJwksStorage` when
 * tokens must outlive a restart or be issued by several instances.
 * @example
 * ```ts
 * import { jwt, createMemoryJwksStorage } from '@framework/auth/plugins/jwt';
 * const plugin = jwt({ storage: createMemoryJwksStorage(), audience: 'https://api.example.com' });
 * ```
 */
export function createMemoryJwksStorage(): JwksStorage {
  const keys = new Map<string, StoredSigningKey>();
  const copy = (k: StoredSigningKey): StoredSigningKey => ({ ...structuredClone(k), createdAt: new Date(k.createdAt) });
  return {
    async migrate() {},
    async list() {
      return [...keys.values()].sort((a, b) => b.generation - a.generation).map(copy);
    },
    async add(key) {
      if (keys.has(key.kid) || [...keys.values()].some((k) => k.generation === key.generation)) return false;
      keys.set(key.kid, copy(key));
      return true;
    },
    async remove(kids) {
      for (const kid of kids) keys.delete(kid);
    },
  };
}
