/**
 * What the conformance suites of plugin storages share: a fresh storage per test, migrated twice (migrations
 * must be idempotent), torn down afterwards.
 * @module
 * @internal
 */

/** Makes a fresh, empty storage (and how to release it). */
export type PluginStorageFactory<S> = () => Promise<{ storage: S; teardown?: () => Promise<void> }>;

/** Returns a runner that gives each test a fresh, twice-migrated storage and tears it down after. */
export function freshStorage<S extends { migrate(): Promise<void> }>(factory: PluginStorageFactory<S>) {
  return async (test: (storage: S) => Promise<void>): Promise<void> => {
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
