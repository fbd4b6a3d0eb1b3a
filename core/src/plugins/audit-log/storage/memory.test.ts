import { runAuditStorageConformance } from './conformance.js';
import { createMemoryAuditStorage } from './memory.js';

runAuditStorageConformance('memory', async () => ({ storage: createMemoryAuditStorage() }));
