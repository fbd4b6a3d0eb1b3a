/**
 * `config.concurrency` scopes on BullMQ: a number (or scope `'fleet'`) is also the queue's global concurrency
 * across every instance; `{ limit, scope: 'instance' }` holds in each process only, as a BullMQ `Worker`'s
 * `concurrency` does, and sets no global concurrency.
 */
import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import type { TriggerConfig } from '../types.js';
import { deletePrefix, jobsRuntime, REDIS_URL, testPrefix } from './bullmq-test-support.js';

const redisUp = await serviceAvailable('redis');

/** A runtime (one instance) whose queue trigger `jobs` waits in its handler until `gate` opens. */
function instance(prefix: string, concurrency: TriggerConfig['concurrency'], onRun: () => void, gate: Promise<void>) {
  return jobsRuntime(prefix, { batchSize: 1 }, { concurrency }, async () => {
    onRun();
    await gate;
  });
}

/** The queue's global concurrency as BullMQ reads it (`null` when none is set). */
async function globalConcurrencyOf(prefix: string): Promise<number | null> {
  const queue = new Queue('jobs', { connection: { url: REDIS_URL }, prefix });
  try {
    return await queue.getGlobalConcurrency();
  } finally {
    await queue.close();
  }
}

describe.skipIf(!redisUp)('bullmqEngine: concurrency scopes', () => {
  it("a number is the queue's global concurrency; scope 'instance' sets none", async () => {
    for (const [concurrency, expected] of [
      [3, 3],
      [{ limit: 4, scope: 'fleet' }, 4],
      [{ limit: 5, scope: 'instance' }, null],
    ] as const) {
      const prefix = testPrefix();
      const runtime = instance(prefix, concurrency, () => {}, Promise.resolve());
      try {
        await runtime.start();
        expect(await globalConcurrencyOf(prefix)).toBe(expected);
      } finally {
        await runtime.stop();
        await deletePrefix(prefix);
      }
    }
  });

  it("scope 'instance': two instances of limit 2 run 4 handlers at once", async () => {
    const prefix = testPrefix();
    let running = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let fourIn!: () => void;
    const allIn = new Promise<void>((resolve) => (fourIn = resolve));
    const onRun = () => {
      if (++running === 4) fourIn();
    };
    const scope = { limit: 2, scope: 'instance' } as const;
    const first = instance(prefix, scope, onRun, gate);
    const second = instance(prefix, scope, onRun, gate);
    try {
      await first.queue('jobs').sendBatch(Array.from({ length: 6 }, (_, n) => ({ body: { n } })));
      await first.start();
      await second.start();
      await allIn;
      expect(running).toBe(4);
      release();
    } finally {
      release();
      await first.stop();
      await second.stop();
      await deletePrefix(prefix);
    }
  });
});
