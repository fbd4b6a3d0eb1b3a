/**
 * `@framework/auth/conformance`: the shared suites a storage adapter (and a
 * plugin's storage) must pass, for third-party adapters (Drizzle, Prisma,
 * another SQL dialect) as for ours. They declare vitest tests, so import
 * them from a test file; `vitest` is an optional peer dependency used only
 * here. Usually reached through `@framework/testing/conformance`.
 * @example
 * ```ts
 * // my-adapter.test.ts
 * import { runStorageConformance } from '@framework/testing/conformance';
 * runStorageConformance('my-adapter', async () => ({ adapter: await myAdapter() }));
 * ```
 * @module
 */
export { runStorageConformance, type ConformanceFixture } from './storage/conformance.js';
export { runTenantStorageConformance, type TenantConformanceFixture } from './tenant/storage/conformance.js';
