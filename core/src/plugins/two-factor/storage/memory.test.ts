import { runTwoFactorStorageConformance } from './conformance.js';
import { createMemoryTwoFactorStorage } from './memory.js';

runTwoFactorStorageConformance('memory', async () => ({ storage: createMemoryTwoFactorStorage() }));
