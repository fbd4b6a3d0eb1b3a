/**
 * The key storage conformance suite: one set of vitest tests that every
 * {@link JwksStorage} (memory, SQLite, PostgreSQL) must pass.
 * @module
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JwksStorage, StoredSigningKey } from '@framework/auth/plugins/jwt';

/** A fresh, empty storage for one test, and how to dispose of it afterwards. */
export interface JwksConformanceFixture {
  storage: JwksStorage;
  teardown?: () => Promise<void>;
}

const key = (generation: number, kid = `kid-${generation}`): StoredSigningKey => ({
  kid,
  alg: generation % 2 ? 'EdDSA' : 'ES256',
  generation,
  publicJwk: { kty: 'OKP', crv: 'Ed25519', x: `x-${generation}` },
  privateKey: `enc:v1:sealed-${generation}`,
  createdAt: new Date(1_700_000_000_000 + generation * 1000),
});

/**
 * Declares the conformance tests for one key storage. Each test gets a
 * fresh storage from `make`, migrates it (twice: migrations are
 * idempotent), and tears it down.
 * @example
 * ```ts
 * runJwksStorageConformance('memory', async () => ({ storage: createMemoryJwksStorage() }));
 * ```
 */
export function runJwksStorageConformance(name: string, make: () => Promise<JwksConformanceFixture>): void {
  describe(`JwksStorage conformance: ${name}`, () => {
    let fixture: JwksConformanceFixture;
    let storage: JwksStorage;
    beforeEach(async () => {
      fixture = await make();
      storage = fixture.storage;
      await storage.migrate();
      await storage.migrate();
    });
    afterEach(async () => fixture.teardown?.());

    it('starts empty, stores keys as given and lists them newest generation first', async () => {
      expect(await storage.list()).toStrictEqual([]);
      for (const g of [2, 1, 3]) expect(await storage.add(key(g))).toBe(true);
      const listed = await storage.list();
      expect(listed.map((k) => k.generation)).toStrictEqual([3, 2, 1]);
      expect(listed[0]).toStrictEqual(key(3));
    });

    it('refuses a taken generation or kid, so only one of two concurrent rotations wins', async () => {
      expect(await storage.add(key(1))).toBe(true);
      const results = await Promise.all([storage.add(key(2, 'a')), storage.add(key(2, 'b')), storage.add(key(2, 'c'))]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await storage.add(key(9, 'kid-1'))).toBe(false);
      expect((await storage.list()).map((k) => k.generation)).toStrictEqual([2, 1]);
    });

    it('removes keys by id and ignores unknown ids', async () => {
      for (const g of [1, 2, 3]) await storage.add(key(g));
      await storage.remove(['kid-1', 'kid-2', 'nope']);
      await storage.remove([]);
      expect((await storage.list()).map((k) => k.kid)).toStrictEqual(['kid-3']);
    });

    it('returns copies: changing a listed key does not change the stored one', async () => {
      await storage.add(key(1));
      const [listed] = await storage.list();
      listed!.publicJwk.x = 'changed';
      expect((await storage.list())[0]).toStrictEqual(key(1));
    });
  });
}
