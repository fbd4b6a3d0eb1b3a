import { afterEach, describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import { defineTrigger } from '../define.js';
import { createTriggerRuntime, type TriggerRuntime } from '../runtime/create.js';
import { bullmqEngine } from './bullmq.js';
import { deletePrefix, REDIS_URL, testPrefix } from './bullmq-test-support.js';
import { eventually } from './conformance.js';

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

describe.skipIf(!redisUp)('bullmqEngine: stop()', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function runtimeOn(prefix: string, handle: (id: string, attempt: number) => Promise<void> | void): TriggerRuntime {
    const runtime = createTriggerRuntime({
      env: {},
      engine: bullmqEngine({ connection: REDIS_URL, prefix }),
      triggers: {
        work: defineTrigger({
          source: { type: 'queue', name: 'work', batchSize: 2, batchTimeout: '20ms' },
          config: { retries: 3, observability: { metrics: false, tracing: false } },
          handle: async (batch, ctx) => {
            for (const message of batch.messages) await handle(message.id, ctx.attempt);
          },
        }),
      },
    });
    cleanups.push(() => runtime.stop({ timeout: '2s' }));
    return runtime;
  }

  it('gives jobs fetched ahead back uncounted, and delivers nothing after it returns', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deletePrefix(prefix));
    const first: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const runtime = runtimeOn(prefix, async (id) => {
      first.push(id);
      await gate;
    });
    await runtime.start();
    for (const id of ['m1', 'm2', 'm3', 'm4']) await runtime.queue('work').send({ id }, { id });
    // The first batch is in the handler; the next one is fetched ahead meanwhile.
    await eventually(() => expect(first).toEqual(['m1']), 5_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stopped = runtime.stop({ timeout: '5s' });
    release();
    await stopped;
    const handledBeforeStop = [...first];
    expect(handledBeforeStop.slice(0, 2)).toEqual(['m1', 'm2']);

    // A job added after stop() is never delivered to the stopped runtime.
    const producer = bullmqEngine({ connection: REDIS_URL, prefix });
    await producer.send('work', [{ body: { id: 'late' }, id: 'late' }]);
    await producer.stop();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(first).toEqual(handledBeforeStop);

    // The rest runs on a new instance, each message on its first attempt: fetching ahead cost none.
    const seen: Array<[string, number]> = [];
    const next = runtimeOn(prefix, (id, attempt) => void seen.push([id, attempt]));
    await next.start();
    await eventually(() => expect(seen.map(([id]) => id).sort()).toEqual(['late', 'm3', 'm4']), 8_000);
    expect(seen.every(([, attempt]) => attempt === 1)).toBe(true);
  }, 30_000);
});
