import { runAnonymousStorageConformance } from './conformance.test-helpers.js';
import { createMemoryAnonymousStorage } from './memory.js';

runAnonymousStorageConformance('memory', async () => ({ storage: createMemoryAnonymousStorage() }));
