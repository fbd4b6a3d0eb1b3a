import { runUsernameStorageConformance } from './conformance.js';
import { createMemoryUsernameStorage } from './memory.js';

runUsernameStorageConformance('memory', async () => ({ storage: createMemoryUsernameStorage() }));
