/**
 * The conformance suite every {@link AdminStorage} passes (memory, SQLite, PostgreSQL).
 * @module
 * @internal
 */
import { describe, expect, it } from 'vitest';
import { freshStorage, type PluginStorageFactory } from '../../storage-conformance.js';
import type { AdminStorage, BanRecord } from '@framework/auth/plugins/admin';

/** Makes a fresh, empty storage (and how to release it). */
export type AdminStorageFactory = PluginStorageFactory<AdminStorage>;

const ban = (userId: string, overrides: Partial<BanRecord> = {}): BanRecord => ({
  userId,
  reason: 'spam',
  expiresAt: new Date(1_900_000_000_123),
  bannedBy: 'admin-1',
  createdAt: new Date(1_700_000_000_456),
  ...overrides,
});

/** Declares the tests for one implementation. */
export function runAdminStorageConformance(name: string, factory: AdminStorageFactory): void {
  describe(`admin storage conformance: ${name}`, () => {
    const withStorage = freshStorage(factory);

    it('round-trips a ban (times to the millisecond, null reason and expiry) and copies it out', () =>
      withStorage(async (storage) => {
        expect(await storage.getBan('u1')).toBeNull();
        await storage.setBan(ban('u1'));
        await storage.setBan(ban('u2', { reason: null, expiresAt: null }));
        expect(await storage.getBan('u1')).toStrictEqual(ban('u1'));
        expect(await storage.getBan('u2')).toStrictEqual(ban('u2', { reason: null, expiresAt: null }));
        const out = (await storage.getBan('u1'))!;
        out.reason = 'changed';
        expect((await storage.getBan('u1'))!.reason).toBe('spam');
      }));

    it('setBan replaces the ban of the same user', () =>
      withStorage(async (storage) => {
        await storage.setBan(ban('u1'));
        await storage.setBan(ban('u1', { reason: 'abuse', bannedBy: 'admin-2', expiresAt: null }));
        expect(await storage.getBan('u1')).toStrictEqual(
          ban('u1', { reason: 'abuse', bannedBy: 'admin-2', expiresAt: null }),
        );
      }));

    it('getBans answers the bans of the listed users only; removeBan lifts one', () =>
      withStorage(async (storage) => {
        for (const id of ['a', 'b', 'c']) await storage.setBan(ban(id));
        const got = await storage.getBans(['a', 'c', 'nobody']);
        expect(got.map((b) => b.userId).sort()).toStrictEqual(['a', 'c']);
        expect(await storage.getBans([])).toStrictEqual([]);
        expect(await storage.removeBan('b')).toBe(true);
        expect(await storage.removeBan('b')).toBe(false);
        expect(await storage.getBan('b')).toBeNull();
        expect(await storage.getBan('a')).not.toBeNull();
      }));
  });
}
