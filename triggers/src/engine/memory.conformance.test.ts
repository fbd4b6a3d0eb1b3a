import { runEngineConformance } from './conformance.js';
import { memoryEngine } from './memory.js';

runEngineConformance('memoryEngine', async ({ clock }) => ({
  engine: memoryEngine(clock ? { clock } : {}),
  cleanup: async () => {},
}));
