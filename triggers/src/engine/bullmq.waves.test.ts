/**
 * A consumer fills its free slots with parallel non-blocking fetches, but never more than 32 in flight at once
 * (a burst of a hundred made V8 allocate the Redis client's per-command objects in the old generation for the
 * rest of the process). Watched on BullMQ's own `Worker.getNextJob`, which the spy calls through.
 */
import { Worker } from 'bullmq';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import type { QueueSource } from '../types.js';
import { deletePrefix, jobsRuntime, testPrefix } from './bullmq-test-support.js';

const redisUp = await serviceAvailable('redis');

const WIDTH = 100;
const WAVE = 32;

/** Counts the non-blocking fetches in flight, keeping the most seen at once. */
function watchFetches(): { most: () => number; total: () => number } {
  let inFlight = 0;
  let most = 0;
  let total = 0;
  const original = Worker.prototype.getNextJob;
  vi.spyOn(Worker.prototype, 'getNextJob').mockImplementation(function (this: Worker, ...args) {
    const [, options] = args;
    if (options?.block !== false) return original.apply(this, args);
    total++;
    most = Math.max(most, ++inFlight);
    return original.apply(this, args).finally(() => inFlight--);
  });
  return { most: () => most, total: () => total };
}

afterEach(() => vi.restoreAllMocks());

describe.skipIf(!redisUp)('bullmqEngine: fetching ahead in waves', () => {
  const shapes: Array<[string, Pick<QueueSource, 'batchSize' | 'batchTimeout'>, { concurrency?: number }, number]> = [
    ['batch 1 × concurrency 100', { batchSize: 1 }, { concurrency: WIDTH }, WIDTH],
    ['batch 100', { batchSize: WIDTH, batchTimeout: '2s' }, {}, 1],
  ];
  it.each(shapes)(
    '%s: every slot filled, at most 32 fetches in flight',
    async (_label, source, config, handlersAtOnce) => {
      const prefix = testPrefix();
      const fetches = watchFetches();
      let inHandler = 0;
      let received = 0;
      let release!: () => void;
      const allIn = new Promise<void>((resolve) => (release = resolve));
      const runtime = jobsRuntime(prefix, source, config, async (event) => {
        received += event.messages.length;
        if (++inHandler === handlersAtOnce) release();
        await allIn;
      });
      try {
        await runtime.queue('jobs').sendBatch(Array.from({ length: WIDTH }, (_, n) => ({ body: { n } })));
        await runtime.start();
        await allIn;
        expect(received).toBe(WIDTH);
        // The slots were filled by fetches ahead in parallel, not one by one, and never by more than a wave.
        expect(fetches.total()).toBeGreaterThan(WAVE);
        expect(fetches.most()).toBeGreaterThan(1);
        expect(fetches.most()).toBeLessThanOrEqual(WAVE);
      } finally {
        await runtime.stop();
        await deletePrefix(prefix);
      }
    },
  );
});
