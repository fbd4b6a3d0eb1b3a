import { describe, expect, it } from 'vitest';
import { defineTrigger } from '../define.js';
import { createTriggerRuntime } from '../runtime/create.js';
import { memoryEngine } from './memory.js';

const consumer = defineTrigger({ source: { type: 'queue', name: 'jobs' }, handle: () => {} });

describe('memoryEngine fidelity', () => {
  it('caps a queue at maxQueueLength with QUEUE_FULL, whole batches at once', async () => {
    const runtime = createTriggerRuntime({
      env: {},
      triggers: { consumer },
      engine: memoryEngine({ maxQueueLength: 3 }),
    });
    const producer = runtime.queue('jobs');
    await producer.sendBatch([{ body: 1 }, { body: 2, id: 'm-2', delay: '1h' }]);
    await expect(producer.sendBatch([{ body: 3 }, { body: 4 }])).rejects.toMatchObject({
      code: 'QUEUE_FULL',
      retryable: true,
    });
    await producer.send(3); // nothing of the refused batch was added
    await expect(producer.send(4)).rejects.toMatchObject({ code: 'QUEUE_FULL' });
    expect(await producer.cancel('m-2')).toBe(true); // cancelling makes room
    await producer.send(4);
  });

  it('refuses bodies that a store could not hold (functions, symbols) with QUEUE_INVALID_BODY', async () => {
    const runtime = createTriggerRuntime({ env: {}, triggers: { consumer } });
    await expect(runtime.queue('jobs').send({ callback: () => {} })).rejects.toMatchObject({
      code: 'QUEUE_INVALID_BODY',
      retryable: false,
    });
    await expect(runtime.queue('jobs').sendBatch([{ body: 1 }, { body: Symbol('s') }])).rejects.toMatchObject({
      code: 'QUEUE_INVALID_BODY',
    });
    expect(await runtime.queue('jobs').cancel('nothing')).toBe(false);
  });
});
