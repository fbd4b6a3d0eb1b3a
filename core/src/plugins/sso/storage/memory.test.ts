import { runSsoStorageConformance } from './conformance.js';
import { createMemorySsoStorage } from './memory.js';

runSsoStorageConformance('memory', async () => ({ storage: createMemorySsoStorage() }));
