/**
 * The conformance suite every {@link AuditStorage} passes (memory, SQLite, PostgreSQL).
 * @module
 * @internal
 */
import { describe, expect, it } from 'vitest';
import { freshStorage, type PluginStorageFactory } from '../../storage-conformance.js';
import type { AuditEntry, AuditStorage } from '@framework/auth/plugins/audit-log';

/** Makes a fresh, empty storage (and how to release it). */
export type AuditStorageFactory = PluginStorageFactory<AuditStorage>;

const T = 1_800_000_000_000;
const entry = (n: number, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  type: 'onSignIn',
  at: new Date(T + n * 1000),
  userId: 'u1',
  actorId: 'u1',
  ip: '192.0.2.1',
  userAgent: 'Test/1.0',
  requestId: `req-${n}`,
  data: { provider: 'credentials', isNewUser: false, n },
  ...overrides,
});

/** Declares the tests for one implementation. */
export function runAuditStorageConformance(name: string, factory: AuditStorageFactory): void {
  describe(`audit storage conformance: ${name}`, () => {
    const withStorage = freshStorage(factory);

    it('round-trips every field (nulls too) and lists newest first', () =>
      withStorage(async (storage) => {
        const anonymous = entry(2, { userId: null, actorId: null, ip: null, userAgent: null, data: {} });
        await storage.append(entry(1));
        await storage.append(anonymous);
        expect(await storage.list({})).toStrictEqual({ entries: [anonymous, entry(1)], next: null });
      }));

    it('filters by user, type and time window, and pages through `next` without gaps or repeats', () =>
      withStorage(async (storage) => {
        for (let n = 1; n <= 7; n++)
          await storage.append(entry(n, n % 2 ? {} : { userId: 'u2', type: 'onUserBanned', actorId: 'admin' }));
        // Two entries at the same millisecond are ordered by id.
        await storage.append(entry(8, { at: new Date(T + 7000) }));
        const ids = (page: { entries: AuditEntry[] }) => page.entries.map((e) => Number(e.id.slice(-12)));
        expect(ids(await storage.list({ userId: 'u2' }))).toStrictEqual([6, 4, 2]);
        expect(ids(await storage.list({ type: 'onUserBanned' }))).toStrictEqual([6, 4, 2]);
        expect(ids(await storage.list({ from: new Date(T + 3000), to: new Date(T + 6000) }))).toStrictEqual([5, 4, 3]);
        const seen: number[] = [];
        let before: string | undefined;
        for (let i = 0; i < 10; i++) {
          const page = await storage.list({ limit: 3, ...(before ? { before } : {}) });
          seen.push(...ids(page));
          if (!page.next) break;
          before = page.next;
        }
        expect(seen).toStrictEqual([8, 7, 6, 5, 4, 3, 2, 1]);
      }));

    it('purge drops entries older than the horizon only', () =>
      withStorage(async (storage) => {
        for (let n = 1; n <= 4; n++) await storage.append(entry(n));
        expect(await storage.purge(new Date(T + 3000))).toBe(2);
        expect((await storage.list({})).entries.map((e) => e.requestId)).toStrictEqual(['req-4', 'req-3']);
      }));
  });
}
