import { afterEach, describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import { defineTrigger } from '../define.js';
import { createTriggerRuntime } from '../runtime/create.js';
import { bullmqEngine } from './bullmq.js';
import { deletePrefix, REDIS_URL, testPrefix } from './bullmq-test-support.js';
import { eventually } from './conformance.js';

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

describe.skipIf(!redisUp)('bullmqEngine: locks of delivered messages', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it.each([1, 3])(
    'keeps extending the lock of a message whose handler outlives lockDuration (batches of %i): delivered once, not found stalled',
    async (batchSize) => {
      const prefix = testPrefix();
      cleanups.push(() => deletePrefix(prefix));
      const deliveries: Array<{ id: string; attempts: number }> = [];
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const runtime = createTriggerRuntime({
        env: {},
        // Locks last 1 s and the stalled check runs every second: a lock not extended lapses within 2 s.
        engine: bullmqEngine({ connection: REDIS_URL, prefix, lockDuration: '1s', stalledInterval: '1s' }),
        triggers: {
          slow: defineTrigger({
            source: { type: 'queue', name: 'slow', batchSize, batchTimeout: '20ms' },
            config: { observability: { metrics: false, tracing: false } },
            handle: async (event) => {
              for (const message of event.messages) deliveries.push({ id: message.id, attempts: message.attempts });
              await released;
            },
          }),
        },
      });
      cleanups.push(() => runtime.stop({ timeout: '2s' }));
      const [id] = await runtime.queue('slow').sendBatch([{ body: { n: 1 } }]);
      await runtime.start();
      await eventually(() => expect(deliveries).toHaveLength(1));
      // Three lock durations and as many stalled checks pass while the handler holds the message.
      await new Promise((resolve) => setTimeout(resolve, 3_200));
      release();
      await eventually(async () => expect((await runtime.getRun(id!))?.status).toBe('completed'));
      expect(deliveries).toEqual([{ id, attempts: 1 }]);
    },
    20_000,
  );
});
