/**
 * The conformance suite every `AnonymousStorage` passes (memory, SQLite, PostgreSQL, MySQL/MariaDB, D1).
 * @module
 */
import { describe, expect, it } from 'vitest';
import { freshStorage, type PluginStorageFactory } from '../../storage-conformance.js';
import type { AnonymousStorage } from './types.js';

export function runAnonymousStorageConformance(name: string, factory: PluginStorageFactory<AnonymousStorage>): void {
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
