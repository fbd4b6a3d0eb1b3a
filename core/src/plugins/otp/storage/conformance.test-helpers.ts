/**
 * The conformance suite every {@link OtpStorage} passes (memory, SQLite, D1, PostgreSQL, MySQL/MariaDB).
 * @module
 * @internal
 */
import { describe, expect, it } from 'vitest';
import { freshStorage, type PluginStorageFactory } from '../../storage-conformance.js';
import type { OtpStorage } from '../types.js';

const hash = (c: string) => c.repeat(64).slice(0, 64);

/** Registers the suite under `name`. */
export function runOtpStorageConformance(name: string, factory: PluginStorageFactory<OtpStorage>): void {
  const withStorage = freshStorage(factory);
  describe(`otp storage conformance: ${name}`, () => {
    it('counts every try at a live code and answers its hash', () =>
      withStorage(async (s) => {
        const now = new Date();
        expect(await s.attempt('k1', now)).toBeNull();
        await s.put({ id: 'k1', codeHash: hash('a'), expiresAt: new Date(now.getTime() + 60_000) });
        expect(await s.attempt('k1', now)).toStrictEqual({ codeHash: hash('a'), attempts: 1 });
        expect(await s.attempt('k1', now)).toStrictEqual({ codeHash: hash('a'), attempts: 2 });
        expect(await s.attempt('k2', now)).toBeNull();
        const counts = await Promise.all([1, 2, 3, 4].map(() => s.attempt('k1', now)));
        expect(counts.map((c) => c!.attempts).sort()).toStrictEqual([3, 4, 5, 6]);
      }));

    it('answers nothing for an expired code, and a new code drops expired ones', () =>
      withStorage(async (s) => {
        const now = Date.now();
        await s.put({ id: 'old', codeHash: hash('a'), expiresAt: new Date(now + 1000) });
        expect(await s.attempt('old', new Date(now + 1000))).toBeNull();
        expect(await s.attempt('old', new Date(now))).toMatchObject({ attempts: 1 });
        await s.put({ id: 'gone', codeHash: hash('b'), expiresAt: new Date(now - 1) });
        await s.put({ id: 'new', codeHash: hash('c'), expiresAt: new Date(now + 60_000) });
        expect(await s.consume('gone', hash('b'))).toBe(false);
      }));

    it('a new code replaces the old one and starts its tries over', () =>
      withStorage(async (s) => {
        const now = new Date();
        const later = new Date(now.getTime() + 60_000);
        await s.put({ id: 'k1', codeHash: hash('a'), expiresAt: later });
        await s.attempt('k1', now);
        await s.attempt('k1', now);
        await s.put({ id: 'k1', codeHash: hash('b'), expiresAt: later });
        expect(await s.attempt('k1', now)).toStrictEqual({ codeHash: hash('b'), attempts: 1 });
        expect(await s.consume('k1', hash('a'))).toBe(false);
      }));

    it('consumes a code once, only with its hash, and removes it', () =>
      withStorage(async (s) => {
        const now = new Date();
        const later = new Date(now.getTime() + 60_000);
        await s.put({ id: 'k1', codeHash: hash('a'), expiresAt: later });
        await s.put({ id: 'k2', codeHash: hash('a'), expiresAt: later });
        expect(await s.consume('k1', hash('b'))).toBe(false);
        const results = await Promise.all([s.consume('k1', hash('a')), s.consume('k1', hash('a'))]);
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await s.attempt('k1', now)).toBeNull();
        await s.remove('k2');
        expect(await s.attempt('k2', now)).toBeNull();
        await s.remove('nothing');
      }));
  });
}
