import { runApiKeyStorageConformance } from './conformance.js';
import { createMemoryApiKeyStorage } from './memory.js';

runApiKeyStorageConformance('memory', async () => ({ storage: createMemoryApiKeyStorage() }));
