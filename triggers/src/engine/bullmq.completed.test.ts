/**
 * Recent deliveries from BullMQ's own job data: `keepCompleted` jobs stay in BullMQ's completed set, and
 * `inspectQueues()` lists them (newest first) from any instance, after a restart too. Real Redis.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import { defineTrigger } from '../define.js';
import { createTriggerRuntime, type TriggerRuntime } from '../runtime/create.js';
import { bullmqEngine } from './bullmq.js';
import { deletePrefix, REDIS_URL, testPrefix } from './bullmq-test-support.js';
import { eventually } from './conformance.js';

const redisUp = await serviceAvailable('redis');
const quiet = { observability: { metrics: false, tracing: false } } as const;

describe.skipIf(!redisUp)('bullmqEngine: recently delivered messages from job data', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function runtimeOn(prefix: string, seen: unknown[], keepCompleted?: number, idempotencyTtl?: '0ms'): TriggerRuntime {
    const runtime = createTriggerRuntime({
      env: {},
      engine: bullmqEngine({
        connection: REDIS_URL,
        prefix,
        ...(keepCompleted !== undefined ? { keepCompleted } : {}),
        ...(idempotencyTtl !== undefined ? { idempotencyTtl } : {}),
      }),
      triggers: {
        jobs: defineTrigger({
          source: { type: 'queue', name: 'jobs', batchSize: 1 },
          config: quiet,
          handle: (event) => {
            for (const message of event.messages) {
              seen.push(message.body);
              message.ack();
            }
          },
        }),
      },
    });
    cleanups.push(() => runtime.stop({ timeout: '2s' }));
    return runtime;
  }

  it('lists completed messages newest first, on another instance after the first one stopped', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deletePrefix(prefix));
    const seen: unknown[] = [];
    const first = runtimeOn(prefix, seen, 100);
    await first.start();
    for (const n of [1, 2, 3]) await first.queue('jobs').send({ n });
    await eventually(() => expect(seen).toHaveLength(3), 8_000);
    await first.stop();

    const second = runtimeOn(prefix, [], 100);
    const [jobs] = await second.inspectQueues();
    expect(jobs!.completed!.map((m) => m.body)).toEqual([{ n: 3 }, { n: 2 }, { n: 1 }]);
    const latest = jobs!.completed![0]!;
    expect(latest).toMatchObject({ queue: 'jobs', attempts: 1 });
    expect(latest.completedAt.getTime()).toBeGreaterThanOrEqual(latest.startedAt.getTime());
    expect(latest.durationMs).toBe(latest.completedAt.getTime() - latest.startedAt.getTime());
  }, 20_000);

  it('keeps at most keepCompleted jobs, and none with idempotencyTtl 0ms', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deletePrefix(prefix));
    const seen: unknown[] = [];
    const runtime = runtimeOn(prefix, seen, 2);
    await runtime.start();
    for (const n of [1, 2, 3, 4]) await runtime.queue('jobs').send({ n });
    await eventually(() => expect(seen).toHaveLength(4), 8_000);
    await eventually(async () => {
      const [jobs] = await runtime.inspectQueues();
      expect(jobs!.completed!.map((m) => m.body)).toEqual([{ n: 4 }, { n: 3 }]);
    }, 4_000);

    const none = testPrefix();
    cleanups.push(() => deletePrefix(none));
    const seenNone: unknown[] = [];
    const removing = runtimeOn(none, seenNone, undefined, '0ms');
    await removing.start();
    await removing.queue('jobs').send({ n: 1 });
    await eventually(() => expect(seenNone).toHaveLength(1), 8_000);
    const [jobs] = await removing.inspectQueues();
    expect(jobs!.completed).toEqual([]);
  }, 20_000);

  it('refuses a keepCompleted that is not a whole number ≥ 0', () => {
    expect(() => bullmqEngine({ connection: REDIS_URL, keepCompleted: -1 })).toThrow(
      /bullmqEngine\(\{keepCompleted\}\): expected a whole number ≥ 0, got -1/,
    );
  });
});
