/**
 * The conformance suite every {@link PhoneNumberStorage} passes (memory, SQLite, D1, PostgreSQL, MySQL/MariaDB);
 * `@framework/testing/conformance` exports it for storages of your own.
 * @module
 */
import { describe, expect, it } from 'vitest';
import type { PhoneNumberStorage } from '../types.js';

/** Makes a fresh, empty phone-number storage (and how to release it). */
export type PhoneNumberStorageFactory = () => Promise<{ storage: PhoneNumberStorage; teardown?: () => Promise<void> }>;

/** Runs `test` on a fresh storage, migrated twice (migrations must be idempotent), torn down after. */
const freshStorage =
  (factory: PhoneNumberStorageFactory) =>
  async (test: (storage: PhoneNumberStorage) => Promise<void>): Promise<void> => {
    const { storage, teardown } = await factory();
    try {
      await storage.migrate();
      await storage.migrate();
      await test(storage);
    } finally {
      await teardown?.();
    }
  };

const at = new Date('2026-01-02T03:04:05.678Z');

/**
 * Declares the suite under `name`.
 * @example
 * ```ts
 * import { runPhoneNumberStorageConformance } from '@framework/testing/conformance';
 * runPhoneNumberStorageConformance('redis', async () => ({ storage: myStorage(await freshClient()) }));
 * ```
 */
export function runPhoneNumberStorageConformance(name: string, factory: PhoneNumberStorageFactory): void {
  const withStorage = freshStorage(factory);
  describe(`phone number storage conformance: ${name}`, () => {
    it('sets, reads by user and by number, replaces and removes', () =>
      withStorage(async (s) => {
        expect(await s.getByUser('u1')).toBeNull();
        expect(await s.getByNumber('+442079460018')).toBeNull();
        expect(await s.set({ userId: 'u1', phoneNumber: '+442079460018', verified: false, updatedAt: at })).toBe(true);
        const record = { userId: 'u1', phoneNumber: '+442079460018', verified: false, updatedAt: at };
        expect(await s.getByUser('u1')).toStrictEqual(record);
        expect(await s.getByNumber('+442079460018')).toStrictEqual(record);
        expect(await s.set({ ...record, verified: true })).toBe(true);
        expect((await s.getByUser('u1'))?.verified).toBe(true);
        expect(await s.set({ ...record, phoneNumber: '+12015550123', verified: true })).toBe(true);
        expect(await s.getByNumber('+442079460018')).toBeNull();
        expect((await s.getByNumber('+12015550123'))?.userId).toBe('u1');
        await s.remove('u1');
        expect(await s.getByUser('u1')).toBeNull();
        expect(await s.getByNumber('+12015550123')).toBeNull();
        await s.remove('nobody');
      }));

    it("refuses a number another user holds, and leaves that user's record alone", () =>
      withStorage(async (s) => {
        await s.set({ userId: 'u1', phoneNumber: '+442079460018', verified: true, updatedAt: at });
        await s.set({ userId: 'u2', phoneNumber: '+12015550123', verified: false, updatedAt: at });
        const later = new Date(at.getTime() + 1000);
        expect(await s.set({ userId: 'u2', phoneNumber: '+442079460018', verified: false, updatedAt: later })).toBe(
          false,
        );
        expect(await s.set({ userId: 'u3', phoneNumber: '+442079460018', verified: true, updatedAt: later })).toBe(
          false,
        );
        expect(await s.getByNumber('+442079460018')).toStrictEqual({
          userId: 'u1',
          phoneNumber: '+442079460018',
          verified: true,
          updatedAt: at,
        });
        expect((await s.getByUser('u2'))?.phoneNumber).toBe('+12015550123');
        expect(await s.getByUser('u3')).toBeNull();
      }));

    it('gives a number to exactly one of several users racing for it', () =>
      withStorage(async (s) => {
        const results = await Promise.all(
          ['a', 'b', 'c', 'd'].map((userId) =>
            s.set({ userId, phoneNumber: '+819012345678', verified: true, updatedAt: at }),
          ),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        const winner = ['a', 'b', 'c', 'd'][results.indexOf(true)];
        expect((await s.getByNumber('+819012345678'))?.userId).toBe(winner);
      }));

    it('compares numbers exactly', () =>
      withStorage(async (s) => {
        await s.set({ userId: 'u1', phoneNumber: '+442079460018', verified: true, updatedAt: at });
        expect(await s.getByNumber('+442079460018 ')).toBeNull();
        expect(await s.getByNumber('442079460018')).toBeNull();
      }));
  });
}
