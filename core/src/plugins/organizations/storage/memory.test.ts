import { runInvitationStorageConformance } from './conformance.js';
import { createMemoryInvitationStorage } from './memory.js';

runInvitationStorageConformance('memory', async () => ({ storage: createMemoryInvitationStorage() }));
