// The conformance suites as `@framework/testing/conformance` publishes them, run against the stores and the engine
// of the installed runtime packages: the suites' `instanceof` checks and types hold across the package boundary.
import { createMemoryAdapter } from '@framework/auth';
import { createMemoryTenantStorage } from '@framework/auth/tenant';
import { memoryEngine } from '@framework/trigger';
import {
  runEngineConformance,
  runStorageConformance,
  runTenantStorageConformance,
} from '@framework/testing/conformance';

runStorageConformance('memory (tarball)', async () => ({ adapter: createMemoryAdapter() }));
runTenantStorageConformance('memory (tarball)', async () => ({ storage: createMemoryTenantStorage() }));
runEngineConformance('memoryEngine (tarball)', async ({ clock }) => ({
  engine: memoryEngine(clock ? { clock } : {}),
  cleanup: async () => {},
}));
