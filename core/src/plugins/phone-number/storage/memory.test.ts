import { runPhoneNumberStorageConformance } from './conformance.js';
import { createMemoryPhoneNumberStorage } from './memory.js';

runPhoneNumberStorageConformance('memory', async () => ({ storage: createMemoryPhoneNumberStorage() }));
