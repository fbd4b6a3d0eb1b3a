/**
 * The conformance suite every {@link AnonymousStorage} passes (memory, SQLite, D1, PostgreSQL, MySQL/MariaDB);
 * `@framework/testing/conformance` exports it for storages of your own.
 * @module
 */
import { describe, expect, it } from 'vitest';
import type { AnonymousStorage } from './types.js';

/** Makes a fresh, empty guest-mark storage (and how to release it). */
export type AnonymousStorageFactory = () => Promise<{ storage: AnonymousStorage; teardown?: () => Promise<void> }>;

/** Runs `test` on a fresh storage, migrated twice (migrations must be idempotent), torn down after. */
const freshStorage =
  (factory: AnonymousStorageFactory) =>
  async (test: (storage: AnonymousStorage) => Promise<void>): Promise<void> => {
    const { storage, teardown } = await factory();
    try {
      await storage.migrate();
      await storage.migrate();
      await test(storage);
    } finally {
      await teardown?.();
    }
  };

/**
 * Declares the vitest tests every `anonymous()` storage passes, each on a fresh storage from `factory`.
 * @example
 * ```ts
 * import { runAnonymousStorageConformance } from '@framework/testing/conformance';
 * runAnonymousStorageConformance('redis', async () => ({ storage: redisGuestMarks(await freshClient()) }));
 * ```
 */
export function runAnonymousStorageConformance(name: string, factory: AnonymousStorageFactory): void {
  const run = freshStorage(factory);
  describe(`AnonymousStorage conformance: ${name}`, () => {
    it('marks a guest, tells guests from others, and removes the mark', () =>
      run(async (s) => {
        expect(await s.isAnonymous('u1')).toBe(false);
        await s.mark('u1', new Date());
        expect(await s.isAnonymous('u1')).toBe(true);
        expect(await s.isAnonymous('u2')).toBe(false);
        expect(await s.isAnonymous('U1')).toBe(false);
        await s.remove('u1');
        expect(await s.isAnonymous('u1')).toBe(false);
        await s.remove('u1');
      }));

    it('marking twice (even at once) keeps one mark', () =>
      run(async (s) => {
        await Promise.all([s.mark('u1', new Date()), s.mark('u1', new Date())]);
        await s.mark('u1', new Date());
        expect(await s.isAnonymous('u1')).toBe(true);
        await s.remove('u1');
        expect(await s.isAnonymous('u1')).toBe(false);
      }));

    it('keeps user ids apart exactly (a long id, a prefix, an id with spaces)', () =>
      run(async (s) => {
        const long = 'x'.repeat(64);
        await s.mark(long, new Date());
        await s.mark('a b', new Date());
        expect(await s.isAnonymous(long)).toBe(true);
        expect(await s.isAnonymous(long.slice(1))).toBe(false);
        expect(await s.isAnonymous('a b')).toBe(true);
        expect(await s.isAnonymous('a b ')).toBe(false);
      }));
  });
}
