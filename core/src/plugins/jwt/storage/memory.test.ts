import { runJwksStorageConformance } from './conformance.js';
import { createMemoryJwksStorage } from './memory.js';

runJwksStorageConformance('memory', async () => ({ storage: createMemoryJwksStorage() }));
