import { runTenantStorageConformance } from './conformance.js';
import { createMemoryTenantStorage } from './memory.js';

runTenantStorageConformance('memory', async () => ({ storage: createMemoryTenantStorage() }));
