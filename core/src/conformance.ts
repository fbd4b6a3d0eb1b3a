/**
 * The storage and tenant-storage conformance suites, in one place inside the core sources. Not an entry point of
 * `@framework/auth` (the runtime package ships no test code and no `vitest`): the suites are published by
 * `@framework/testing/conformance`, whose build bundles them from here. Core's own tests import them by relative
 * path.
 * @example
 * ```ts
 * // my-adapter.test.ts
 * import { runStorageConformance } from '@framework/testing/conformance';
 * runStorageConformance('my-adapter', async () => ({ adapter: await myAdapter() }));
 * ```
 * @module
 * @internal
 */
export { runStorageConformance, type ConformanceFixture } from './storage/conformance.js';
export { runTenantStorageConformance, type TenantConformanceFixture } from './tenant/storage/conformance.js';
