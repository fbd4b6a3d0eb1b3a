import { runOtpStorageConformance } from './conformance.test-helpers.js';
import { createMemoryOtpStorage } from './memory.js';

runOtpStorageConformance('memory', async () => ({ storage: createMemoryOtpStorage() }));
