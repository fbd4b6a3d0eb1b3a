import { describe } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import { bullmqEngine } from './bullmq.js';
import { deletePrefix, REDIS_URL, testPrefix } from './bullmq-test-support.js';
import { runEngineConformance } from './conformance.js';

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

describe.skipIf(!redisUp)('bullmqEngine', () => {
  runEngineConformance('bullmqEngine', async ({ clock }) => {
    const prefix = testPrefix();
    return {
      engine: bullmqEngine({ connection: REDIS_URL, prefix, ...(clock ? { clock } : {}) }),
      cleanup: () => deletePrefix(prefix),
    };
  });
});
