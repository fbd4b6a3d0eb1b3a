/**
 * The conformance suite every {@link UsernameStorage} passes (memory, SQLite, D1, PostgreSQL, MySQL/MariaDB);
 * `@framework/testing/conformance` exports it for storages of your own.
 * @module
 */
import { describe, expect, it } from 'vitest';
import type { UsernameStorage } from './types.js';

/** Makes a fresh, empty username storage (and how to release it). */
export type UsernameStorageFactory = () => Promise<{ storage: UsernameStorage; teardown?: () => Promise<void> }>;

/** Runs `test` on a fresh storage, migrated twice (migrations must be idempotent), torn down after. */
function freshStorage(factory: UsernameStorageFactory) {
  return async (test: (storage: UsernameStorage) => Promise<void>): Promise<void> => {
    const { storage, teardown } = await factory();
    try {
      await storage.migrate();
      await storage.migrate();
      await test(storage);
    } finally {
      await teardown?.();
    }
  };
}

const rec = (username: string, userId: string, displayUsername = username) => ({ username, displayUsername, userId });

/**
 * Declares the tests a {@link UsernameStorage} passes: one holder per folded name under racing writes, renames that
 * release the old name, exact key comparison, sign-up reservations (held, renewed by the same address, given way
 * when expired, bound to the new user), and release on account deletion.
 * @example
 * ```ts
 * import { runUsernameStorageConformance } from '@framework/testing/conformance';
 * runUsernameStorageConformance('redis', async () => ({ storage: redisUsernameStorage(await freshClient()) }));
 * ```
 */
export function runUsernameStorageConformance(name: string, factory: UsernameStorageFactory): void {
  const withStorage = freshStorage(factory);
  describe(`username storage conformance: ${name}`, () => {
    it('gives a name to one user only, whatever the interleaving', () =>
      withStorage(async (s) => {
        const now = new Date();
        const results = await Promise.all(['u1', 'u2', 'u3', 'u4'].map((u) => s.assign(rec('ada', u), now)));
        expect(results.filter(Boolean)).toHaveLength(1);
        const holder = await s.find('ada');
        expect(holder).not.toBeNull();
        expect(['u1', 'u2', 'u3', 'u4'][results.indexOf(true)]).toBe(holder!.userId);
        expect(await s.find('nobody')).toBeNull();
      }));

    it('a new name releases the old one; the own name again only changes how it is shown', () =>
      withStorage(async (s) => {
        const now = new Date();
        expect(await s.assign(rec('ada', 'u1', 'Ada'), now)).toBe(true);
        expect(await s.assign(rec('ada', 'u1', 'ADA'), now)).toBe(true);
        expect(await s.findByUser('u1')).toStrictEqual(rec('ada', 'u1', 'ADA'));
        expect(await s.assign(rec('lovelace', 'u1'), now)).toBe(true);
        expect(await s.find('ada')).toBeNull();
        expect(await s.findByUser('u1')).toStrictEqual(rec('lovelace', 'u1'));
        expect(await s.isFree('ada', now)).toBe(true);
        expect(await s.isFree('lovelace', now)).toBe(false);
        expect(await s.isFree('lovelace', now, 'u1')).toBe(true);
        expect(await s.assign(rec('lovelace', 'u2'), now)).toBe(false);
        expect(await s.findByUser('u2')).toBeNull();
      }));

    it('compares names exactly (no case or padding folding in the store)', () =>
      withStorage(async (s) => {
        const now = new Date();
        expect(await s.assign(rec('ada', 'u1'), now)).toBe(true);
        expect(await s.assign(rec('ada ', 'u2'), now)).toBe(true);
        expect(await s.assign(rec('ADA', 'u3'), now)).toBe(true);
        expect((await s.find('ada'))!.userId).toBe('u1');
        expect((await s.find('ada '))!.userId).toBe('u2');
      }));

    it('a live reservation holds the name; an expired one gives way; binding gives it to the new user', () =>
      withStorage(async (s) => {
        const now = new Date();
        const later = new Date(now.getTime() + 60_000);
        expect(
          await s.reserve({ username: 'ada', displayUsername: 'Ada', email: 'a@x.io', expiresAt: later }, now),
        ).toBe(true);
        expect(await s.find('ada')).toBeNull();
        expect(await s.isFree('ada', now)).toBe(false);
        expect(await s.assign(rec('ada', 'u2'), now)).toBe(false);
        expect(
          await s.reserve({ username: 'ada', displayUsername: 'ada', email: 'b@x.io', expiresAt: later }, now),
        ).toBe(false);
        expect(await s.lookup('ada')).toStrictEqual({ email: 'a@x.io' });
        expect(
          await s.reserve({ username: 'ada', displayUsername: 'Ada', email: 'a@x.io', expiresAt: later }, now),
        ).toBe(true);
        expect(await s.bindReservation('b@x.io', 'u2')).toBeNull();
        expect(await s.bindReservation('a@x.io', 'u1')).toStrictEqual(rec('ada', 'u1', 'Ada'));
        expect(await s.bindReservation('a@x.io', 'u1')).toBeNull();
        expect((await s.find('ada'))!.userId).toBe('u1');
        expect(await s.lookup('ada')).toStrictEqual({ userId: 'u1' });
        expect(await s.lookup('nobody')).toBeNull();

        await s.reserve({ username: 'grace', displayUsername: 'grace', email: 'g@x.io', expiresAt: later }, now);
        expect(await s.isFree('grace', later)).toBe(true);
        expect(await s.assign(rec('grace', 'u3'), later)).toBe(true);
        expect(await s.bindReservation('g@x.io', 'u4')).toBeNull();
        expect((await s.find('grace'))!.userId).toBe('u3');

        await s.reserve({ username: 'linus', displayUsername: 'linus', email: 'l@x.io', expiresAt: later }, now);
        await s.dropReservation('linus', 'other@x.io');
        expect(await s.isFree('linus', now)).toBe(false);
        await s.dropReservation('linus', 'l@x.io');
        expect(await s.isFree('linus', now)).toBe(true);
      }));

    it('removeUser releases the names of that user only', () =>
      withStorage(async (s) => {
        const now = new Date();
        await s.assign(rec('ada', 'u1'), now);
        await s.assign(rec('grace', 'u2'), now);
        await s.removeUser('u1');
        expect(await s.find('ada')).toBeNull();
        expect((await s.find('grace'))!.userId).toBe('u2');
        await s.removeUser('nobody');
      }));
  });
}
