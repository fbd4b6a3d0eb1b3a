/**
 * `createMemoryAnonymousStorage`: guest marks in this process's memory.
 * @module
 */
import type { AnonymousStorage } from './types.js';

/**
 * Guest marks in a `Map` of this process: for tests and single-instance apps on the memory adapter (the default
 * there). Use `createSqlAnonymousStorage` otherwise.
 * @example
 * ```ts
 * import { anonymous, createMemoryAnonymousStorage } from '@framework/auth/plugins/anonymous';
 *
 * anonymous({ storage: createMemoryAnonymousStorage() });
 * ```
 */
export function createMemoryAnonymousStorage(): AnonymousStorage {
  const guests = new Map<string, Date>();
  return {
    async migrate() {},
    async mark(userId, createdAt) {
      if (!guests.has(userId)) guests.set(userId, new Date(createdAt));
    },
    async isAnonymous(userId) {
      return guests.has(userId);
    },
    async remove(userId) {
      guests.delete(userId);
    },
  };
}
