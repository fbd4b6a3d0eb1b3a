import { runOidcProviderStorageConformance } from './conformance.test-helpers.js';
import { createMemoryOidcProviderStorage } from './memory.js';

runOidcProviderStorageConformance('memory', async () => ({ storage: createMemoryOidcProviderStorage() }));
