import { runUsernameStorageConformance } from './conformance.test-helpers.js';
import { createMemoryUsernameStorage } from './memory.js';

runUsernameStorageConformance('memory', async () => ({ storage: createMemoryUsernameStorage() }));
