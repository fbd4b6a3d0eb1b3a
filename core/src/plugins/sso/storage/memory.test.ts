import { runSsoStorageConformance } from './conformance.test-helpers.js';
import { createMemorySsoStorage } from './memory.js';

runSsoStorageConformance('memory', async () => ({ storage: createMemorySsoStorage() }));
