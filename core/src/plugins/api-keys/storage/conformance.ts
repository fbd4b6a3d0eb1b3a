/**
 * The conformance suite every {@link ApiKeyStorage} passes (memory, SQLite,
 * PostgreSQL).
 * @module
 * @internal
 */
import { describe, expect, it } from 'vitest';
import { StorageConflictError } from '@framework/auth';
import type { ApiKeyRecord, ApiKeyStorage } from '@framework/auth/plugins/api-keys';

/** Makes a fresh, empty storage (and how to release it). */
export type ApiKeyStorageFactory = () => Promise<{ storage: ApiKeyStorage; teardown?: () => Promise<void> }>;

let n = 0;
function record(overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  n += 1;
  return {
    id: `key-${n}`,
    prefix: n.toString(16).padStart(12, '0'),
    secretHash: 'a'.repeat(64),
    userId: 'u1',
    name: null,
    permissions: null,
    roles: null,
    createdAt: new Date(1_700_000_000_000 + n * 1000),
    expiresAt: null,
    revokedAt: null,
    ...overrides,
  };
}

/** Registers the suite under `name`. */
export function runApiKeyStorageConformance(name: string, factory: ApiKeyStorageFactory): void {
  describe(`API key storage conformance: ${name}`, () => {
    async function withStorage(fn: (s: ApiKeyStorage) => Promise<void>): Promise<void> {
      const { storage, teardown } = await factory();
      try {
        await storage.migrate();
        await storage.migrate(); // idempotent
        await fn(storage);
      } finally {
        await teardown?.();
      }
    }

    it('round-trips every field, by prefix', () =>
      withStorage(async (s) => {
        const full = record({
          name: 'CI deploy',
          permissions: ['posts:read', 'posts:edit:own'],
          roles: ['editor', 'viewer'],
          expiresAt: new Date(1_800_000_000_123),
        });
        const bare = record();
        await s.create(full);
        await s.create(bare);
        expect(await s.findByPrefix(full.prefix)).toStrictEqual(full);
        expect(await s.findByPrefix(bare.prefix)).toStrictEqual(bare);
        expect(await s.findByPrefix('ffffffffffff')).toBeNull();
      }));

    it('an empty permission list stays empty (grants nothing), distinct from null', () =>
      withStorage(async (s) => {
        const none = record({ permissions: [] });
        await s.create(none);
        expect((await s.findByPrefix(none.prefix))?.permissions).toStrictEqual([]);
      }));

    it('an empty role list stays empty, distinct from null', () =>
      withStorage(async (s) => {
        const none = record({ roles: [] });
        await s.create(none);
        expect((await s.findByPrefix(none.prefix))?.roles).toStrictEqual([]);
        expect((await s.listByUser('u1'))[0]?.roles).toStrictEqual([]);
      }));

    it('refuses a taken prefix or id with StorageConflictError', () =>
      withStorage(async (s) => {
        const first = record();
        await s.create(first);
        await expect(s.create(record({ prefix: first.prefix }))).rejects.toBeInstanceOf(StorageConflictError);
        await expect(s.create(record({ id: first.id }))).rejects.toBeInstanceOf(StorageConflictError);
        expect(await s.listByUser('u1')).toHaveLength(1);
      }));

    it("lists one user's keys, oldest first, and no one else's", () =>
      withStorage(async (s) => {
        const later = record({ createdAt: new Date(1_700_000_900_000) });
        const earlier = record({ createdAt: new Date(1_700_000_000_000) });
        await s.create(later);
        await s.create(earlier);
        await s.create(record({ userId: 'u2' }));
        expect((await s.listByUser('u1')).map((r) => r.id)).toStrictEqual([earlier.id, later.id]);
        expect(await s.listByUser('nobody')).toStrictEqual([]);
      }));

    it("revokes once, only the owner's key, and keeps the record", () =>
      withStorage(async (s) => {
        const key = record();
        await s.create(key);
        const at = new Date(1_750_000_000_000);
        expect(await s.revoke(key.id, 'u2', at)).toBe(false);
        expect(await s.revoke('missing', 'u1', at)).toBe(false);
        expect((await s.findByPrefix(key.prefix))?.revokedAt).toBeNull();
        expect(await s.revoke(key.id, 'u1', at)).toBe(true);
        expect(await s.revoke(key.id, 'u1', new Date())).toBe(false);
        expect((await s.findByPrefix(key.prefix))?.revokedAt).toStrictEqual(at);
        expect((await s.listByUser('u1'))[0]?.revokedAt).toStrictEqual(at);
      }));

    it('returns copies: mutating a result changes nothing stored', () =>
      withStorage(async (s) => {
        const key = record({ permissions: ['posts:read'], roles: ['viewer'] });
        await s.create(key);
        const read = (await s.findByPrefix(key.prefix))!;
        read.permissions!.push('*');
        read.roles!.push('admin');
        read.revokedAt = new Date();
        expect(await s.findByPrefix(key.prefix)).toStrictEqual(key);
      }));
  });
}
