import { runAnonymousStorageConformance } from './conformance.js';
import { createMemoryAnonymousStorage } from './memory.js';

runAnonymousStorageConformance('memory', async () => ({ storage: createMemoryAnonymousStorage() }));
