import { runAdminStorageConformance } from './conformance.js';
import { createMemoryAdminStorage } from './memory.js';

runAdminStorageConformance('memory', async () => ({ storage: createMemoryAdminStorage() }));
