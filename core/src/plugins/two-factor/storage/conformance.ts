/**
 * The conformance suite every {@link TwoFactorStorage} passes (memory, SQLite, PostgreSQL).
 * @module
 * @internal
 */
import { describe, expect, it } from 'vitest';
import type { TrustedDeviceRecord, TwoFactorRecord, TwoFactorStorage } from '@framework/auth/plugins/two-factor';

/** Makes a fresh, empty storage (and how to release it). */
export type TwoFactorStorageFactory = () => Promise<{ storage: TwoFactorStorage; teardown?: () => Promise<void> }>;

const enrolment = (userId: string, overrides: Partial<TwoFactorRecord> = {}): TwoFactorRecord => ({
  userId,
  secret: `enc:v1:${userId}`,
  enabled: false,
  lastUsedStep: null,
  createdAt: new Date(1_700_000_000_000),
  enabledAt: null,
  ...overrides,
});
const device = (id: string, userId: string, expiresAt: Date, createdAt = new Date(1_700_000_000_000)) =>
  ({
    id,
    userId,
    secretHash: 'b'.repeat(64),
    userAgent: 'Test/1.0',
    createdAt,
    expiresAt,
  }) satisfies TrustedDeviceRecord;

/** Registers the suite under `name`. */
export function runTwoFactorStorageConformance(name: string, factory: TwoFactorStorageFactory): void {
  describe(`two-factor storage conformance: ${name}`, () => {
    async function withStorage(fn: (s: TwoFactorStorage) => Promise<void>): Promise<void> {
      const { storage, teardown } = await factory();
      try {
        await storage.migrate();
        await storage.migrate(); // idempotent
        await fn(storage);
      } finally {
        await teardown?.();
      }
    }

    it('round-trips an enrolment, replaces it, and confirms it', () =>
      withStorage(async (s) => {
        expect(await s.get('u1')).toBeNull();
        expect(await s.enable('u1', new Date())).toBe(false);
        await s.put(enrolment('u1', { lastUsedStep: 5 }));
        expect(await s.get('u1')).toStrictEqual(enrolment('u1', { lastUsedStep: 5 }));
        await s.put(enrolment('u1', { secret: 'enc:v1:new' }));
        expect(await s.get('u1')).toStrictEqual(enrolment('u1', { secret: 'enc:v1:new' }));
        const at = new Date(1_700_000_123_000);
        expect(await s.enable('u1', at)).toBe(true);
        expect(await s.get('u1')).toMatchObject({ enabled: true, enabledAt: at });
      }));

    it('accepts each time step once, and never an earlier one', () =>
      withStorage(async (s) => {
        expect(await s.useStep('nobody', 1)).toBe(false);
        await s.put(enrolment('u1'));
        expect(await s.useStep('u1', 100)).toBe(true);
        expect(await s.useStep('u1', 100)).toBe(false);
        expect(await s.useStep('u1', 99)).toBe(false);
        expect(await s.useStep('u1', 101)).toBe(true);
        expect((await s.get('u1'))?.lastUsedStep).toBe(101);
        const results = await Promise.all([s.useStep('u1', 102), s.useStep('u1', 102), s.useStep('u1', 102)]);
        expect(results.filter(Boolean)).toHaveLength(1);
      }));

    it('spends backup codes once, per user, and replaces them', () =>
      withStorage(async (s) => {
        await s.setBackupCodes('u1', ['h1', 'h2', 'h3']);
        await s.setBackupCodes('u2', ['h1']);
        expect(await s.countBackupCodes('u1')).toBe(3);
        expect(await s.useBackupCode('u1', 'h2')).toBe(true);
        expect(await s.useBackupCode('u1', 'h2')).toBe(false);
        expect(await s.useBackupCode('u1', 'nope')).toBe(false);
        expect(await s.countBackupCodes('u1')).toBe(2);
        expect(await s.countBackupCodes('u2')).toBe(1);
        await s.setBackupCodes('u1', ['h9']);
        expect(await s.useBackupCode('u1', 'h1')).toBe(false);
        expect(await s.countBackupCodes('u1')).toBe(1);
        await s.setBackupCodes('u1', []);
        expect(await s.countBackupCodes('u1')).toBe(0);
      }));

    it('keeps trusted devices per user, lists the live ones, and removes one or all', () =>
      withStorage(async (s) => {
        const now = new Date(1_700_000_500_000);
        const later = new Date(now.getTime() + 60_000);
        await s.addTrustedDevice(device('d1', 'u1', later));
        await s.addTrustedDevice(device('d2', 'u1', later, new Date(1_700_000_001_000)));
        await s.addTrustedDevice(device('d3', 'u1', new Date(now.getTime() - 1)));
        await s.addTrustedDevice(device('d4', 'u2', later));
        expect(await s.findTrustedDevice('d1')).toStrictEqual(device('d1', 'u1', later));
        expect(await s.findTrustedDevice('zz')).toBeNull();
        expect((await s.listTrustedDevices('u1', now)).map((d) => d.id)).toStrictEqual(['d1', 'd2']);
        expect(await s.removeTrustedDevices('u2', 'd1')).toBe(0);
        expect(await s.removeTrustedDevices('u1', 'd1')).toBe(1);
        expect(await s.findTrustedDevice('d1')).toBeNull();
        expect(await s.removeTrustedDevices('u1')).toBe(2);
        expect(await s.findTrustedDevice('d4')).not.toBeNull();
      }));

    it('remove() drops the enrolment, backup codes and trusted devices of one user only', () =>
      withStorage(async (s) => {
        const later = new Date(Date.now() + 60_000);
        for (const u of ['u1', 'u2']) {
          await s.put(enrolment(u));
          await s.setBackupCodes(u, ['h1']);
          await s.addTrustedDevice(device(`d-${u}`, u, later));
        }
        await s.remove('u1');
        expect(await s.get('u1')).toBeNull();
        expect(await s.countBackupCodes('u1')).toBe(0);
        expect(await s.findTrustedDevice('d-u1')).toBeNull();
        expect(await s.get('u2')).not.toBeNull();
        expect(await s.countBackupCodes('u2')).toBe(1);
        expect(await s.findTrustedDevice('d-u2')).not.toBeNull();
      }));

    it('counts challenge attempts and consumes a challenge once', () =>
      withStorage(async (s) => {
        const expires = new Date(Date.now() + 300_000);
        expect(await s.challengeAttempt('c1', expires)).toBe(1);
        expect(await s.challengeAttempt('c1', expires)).toBe(2);
        expect(await s.challengeAttempt('c2', expires)).toBe(1);
        const consumed = await Promise.all([s.consumeChallenge('c1', expires), s.consumeChallenge('c1', expires)]);
        expect(consumed.filter(Boolean)).toHaveLength(1);
        expect(await s.challengeAttempt('c1', expires)).toBe(Number.POSITIVE_INFINITY);
        expect(await s.consumeChallenge('c1', expires)).toBe(false);
      }));

    it('forgets expired challenges', () =>
      withStorage(async (s) => {
        expect(await s.challengeAttempt('old', new Date(Date.now() - 1000))).toBe(1);
        // The expired row is purged when the next challenge arrives, so the id starts over.
        expect(await s.challengeAttempt('new', new Date(Date.now() + 60_000))).toBe(1);
        expect(await s.challengeAttempt('old', new Date(Date.now() + 60_000))).toBe(1);
      }));
  });
}
