/**
 * The conformance suite every {@link InvitationStorage} passes (memory, SQLite, PostgreSQL).
 * @module
 * @internal
 */
import { describe, expect, it } from 'vitest';
import { freshStorage, type PluginStorageFactory } from '../../storage-conformance.js';
import type { InvitationRecord, InvitationStorage } from '@framework/auth/plugins/organizations';

/** Makes a fresh, empty storage (and how to release it). */
export type InvitationStorageFactory = PluginStorageFactory<InvitationStorage>;

const T = 1_800_000_000_000;
const invitation = (n: number, overrides: Partial<InvitationRecord> = {}): InvitationRecord => ({
  id: `inv-${n}`,
  organizationId: 'org-a',
  email: `person${n}@example.com`,
  role: 'member',
  inviterId: 'owner-1',
  tokenHash: String(n).repeat(64).slice(0, 64),
  status: 'pending',
  expiresAt: new Date(T + 7 * 86_400_000),
  createdAt: new Date(T + n),
  sentAt: new Date(T + n),
  ...overrides,
});

/** Declares the tests for one implementation. */
export function runInvitationStorageConformance(name: string, factory: InvitationStorageFactory): void {
  describe(`invitation storage conformance: ${name}`, () => {
    const withStorage = freshStorage(factory);

    it('round-trips an invitation (email lower-cased) by id and by token hash', () =>
      withStorage(async (storage) => {
        await storage.create(invitation(1, { email: 'Mixed@Example.COM' }));
        const stored = invitation(1, { email: 'mixed@example.com' });
        expect(await storage.get('inv-1')).toStrictEqual(stored);
        expect(await storage.findByTokenHash(stored.tokenHash)).toStrictEqual(stored);
        expect(await storage.get('nope')).toBeNull();
        expect(await storage.findByTokenHash('f'.repeat(64))).toBeNull();
      }));

    it('settles a pending invitation once, even under concurrency; renew only while pending', () =>
      withStorage(async (storage) => {
        await storage.create(invitation(1));
        const results = await Promise.all([storage.settle('inv-1', 'accepted'), storage.settle('inv-1', 'declined')]);
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await storage.settle('inv-1', 'revoked')).toBe(false);
        expect(await storage.settle('nope', 'revoked')).toBe(false);
        const renewal = { tokenHash: 'e'.repeat(64), sentAt: new Date(T + 50), expiresAt: new Date(T + 99) };
        expect(await storage.renew('inv-1', renewal)).toBe(false);
        await storage.create(invitation(2));
        expect(await storage.renew('inv-2', renewal)).toBe(true);
        expect(await storage.get('inv-2')).toStrictEqual(invitation(2, renewal));
      }));

    it('lists by organization (and status) and pending by email, oldest first; deletes by organization', () =>
      withStorage(async (storage) => {
        await storage.create(invitation(3, { email: 'same@example.com' }));
        await storage.create(invitation(1, { email: 'same@example.com' }));
        await storage.create(invitation(2, { organizationId: 'org-b', email: 'SAME@example.com' }));
        await storage.settle('inv-3', 'revoked');
        const ids = (list: InvitationRecord[]) => list.map((r) => r.id);
        expect(ids(await storage.listByOrganization('org-a'))).toStrictEqual(['inv-1', 'inv-3']);
        expect(ids(await storage.listByOrganization('org-a', 'pending'))).toStrictEqual(['inv-1']);
        expect(ids(await storage.listPendingByEmail('Same@Example.com'))).toStrictEqual(['inv-1', 'inv-2']);
        await storage.deleteByOrganization('org-a');
        expect(await storage.listByOrganization('org-a')).toStrictEqual([]);
        expect(ids(await storage.listByOrganization('org-b'))).toStrictEqual(['inv-2']);
      }));
  });
}
