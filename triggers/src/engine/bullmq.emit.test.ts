import { afterEach, describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import { defineTrigger } from '../define.js';
import { createTriggerRuntime, type TriggerRuntime } from '../runtime/create.js';
import { bullmqEngine } from './bullmq.js';
import { deletePrefix, REDIS_URL, testPrefix } from './bullmq-test-support.js';
import { eventually } from './conformance.js';

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

const quiet = { observability: { metrics: false, tracing: false } } as const;

describe.skipIf(!redisUp)('bullmqEngine: durable emit', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function runtimeOn(
    prefix: string,
    handle: (event: unknown, attempt: number) => void | Promise<void>,
  ): TriggerRuntime {
    const runtime = createTriggerRuntime({
      name: 'emitter',
      env: {},
      engine: bullmqEngine({ connection: REDIS_URL, prefix }),
      triggers: {
        notify: defineTrigger({
          source: { type: 'email' },
          config: { ...quiet, retries: 1, retryDelay: '50ms' },
          handle: (event, ctx) => handle(event, ctx.attempt),
        }),
      },
    });
    cleanups.push(() => runtime.stop({ timeout: '2s' }));
    return runtime;
  }

  it('an emit outlives the emitting process and runs on another instance', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deletePrefix(prefix));
    const seen: unknown[] = [];
    const emitter = runtimeOn(prefix, () => {
      throw new Error('the emitter never runs it');
    });
    // Never started: only the durable queue can carry the event to the worker.
    await emitter.emit('notify', { user: 42 });
    await emitter.stop();
    const worker = runtimeOn(prefix, (event) => void seen.push(event));
    await worker.start();
    await eventually(() => expect(seen).toEqual([{ user: 42 }]), 8_000);
  }, 20_000);

  it('retries with the target config and keeps a final failure in failed()', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deletePrefix(prefix));
    const attempts: number[] = [];
    const runtime = runtimeOn(prefix, (_event, attempt) => {
      attempts.push(attempt);
      throw new Error('mail server down');
    });
    await runtime.start();
    await runtime.emit('notify', { user: 7 });
    await eventually(
      async () =>
        expect(await runtime.failed('framework.emit.emitter')).toMatchObject([
          {
            body: { target: 'notify', payload: { user: 7 } },
            reason: expect.stringContaining('retries exhausted after 2 deliveries: mail server down'),
          },
        ]),
      8_000,
    );
    expect(attempts).toEqual([1, 2]);
    // A failed emit can be replayed like a queue message.
    const [failed] = await runtime.failed('framework.emit.emitter');
    expect(await runtime.replay('framework.emit.emitter', { id: failed!.id })).toEqual([failed!.id]);
    await eventually(() => expect(attempts).toEqual([1, 2, 1, 2]), 8_000);
  }, 20_000);
});
