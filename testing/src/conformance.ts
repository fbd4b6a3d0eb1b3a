/**
 * `@framework/testing/conformance`: every shared conformance suite of the
 * kit in one place, so a third-party storage adapter, tenant storage,
 * trigger engine or framework adapter proves itself the way ours do.
 *
 * - storage adapters: {@link runStorageConformance} (users, accounts,
 *   sessions, tokens, passkeys, session versions, purge);
 * - tenant storage: {@link runTenantStorageConformance};
 * - plugin storages: `runTwoFactorStorageConformance`, `runApiKeyStorageConformance`, `runJwksStorageConformance`,
 *   `runAdminStorageConformance`, `runAuditStorageConformance`, `runInvitationStorageConformance`;
 * - trigger engines: {@link runEngineConformance};
 * - HTTP framework adapters: {@link runAdapterConformance} (an example app
 *   over a real server: sign-up, sign-in, CSRF, hostile input, bodies,
 *   headers) and {@link runRoleConformance} (the one role check, translated).
 *
 * The suites declare vitest tests: call them at the top level of a test file.
 * @example
 * ```ts
 * // drizzle-adapter.test.ts
 * import { runStorageConformance } from '@framework/testing/conformance';
 * import { drizzleAdapter } from './drizzle-adapter.js';
 *
 * runStorageConformance('drizzle', async () => {
 *   const adapter = drizzleAdapter(await freshDatabase());
 *   await adapter.migrate();
 *   return { adapter };
 * });
 * ```
 * @module
 */
// The suites live beside the code they check and are bundled into this package's build (the runtime packages
// publish no test code); they reach the kit through its public entry points.
export { runStorageConformance, runTenantStorageConformance } from '../../core/src/conformance.js';
export type { ConformanceFixture, TenantConformanceFixture } from '../../core/src/conformance.js';
export {
  runEngineConformance,
  eventually,
  concurrencyProbe,
  type EngineFactory,
} from '../../triggers/src/conformance.js';
export * from './conformance/http-adapter.js';
export * from './conformance/role-guard.js';
export * from './conformance/plugin-storage.js';
export {
  looksLikeStack,
  rawRequest,
  singleConnectionAgent,
  type RawRequest,
  type RawResponse,
} from './conformance/raw-http.js';
export * from './conformance/auth-fixture.js';
