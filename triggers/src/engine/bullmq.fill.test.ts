/**
 * Under a global concurrency (`config.concurrency`), a consumer whose slots are free and that no other
 * instance competes with fills them in one round of fetches, as it does without one, instead of one blocking
 * fetch per slot. Seen from Redis with MONITOR: each blocking fetch under a global concurrency first marks the
 * queue as waited for (`framework.waiting`), so the marks count the blocking fetches.
 */
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import { deletePrefix, jobsRuntime, REDIS_URL, testPrefix } from './bullmq-test-support.js';

const redisUp = await serviceAvailable('redis');

const WIDTH = 10;

describe.skipIf(!redisUp)('bullmqEngine: filling free slots under a global concurrency', () => {
  it(`${WIDTH} messages at batch size 1 × concurrency ${WIDTH} are all in handlers after at most 3 blocking fetches`, async () => {
    const prefix = testPrefix();
    const monitor = createClient({ url: REDIS_URL });
    await monitor.connect();
    let marks = 0;
    let fenced!: () => void;
    const fence = new Promise<void>((resolve) => (fenced = resolve));
    await monitor.monitor((line: string) => {
      if (line.includes(`"${prefix}:fence"`)) fenced();
      else if (line.includes(`${prefix}:jobs:framework.waiting`) && !line.includes(' lua]')) marks++;
    });
    // Every handler waits until all of them run at once.
    let inHandler = 0;
    let release!: () => void;
    const allIn = new Promise<void>((resolve) => (release = resolve));
    const runtime = jobsRuntime(prefix, { batchSize: 1 }, { concurrency: WIDTH }, async () => {
      if (++inHandler === WIDTH) release();
      await allIn;
    });
    try {
      await runtime.queue('jobs').sendBatch(Array.from({ length: WIDTH }, (_, n) => ({ body: { n } })));
      await runtime.start();
      await allIn;
      // MONITOR lines trail the commands: count once an ECHO sent after them came back.
      const marker = createClient({ url: REDIS_URL });
      await marker.connect();
      await marker.echo(`${prefix}:fence`);
      await marker.destroy();
      await fence;
      expect(marks).toBeGreaterThan(0);
      // One blocking fetch finds the first job; its delivery fetches the other slots' jobs ahead. A blocking
      // fetch per slot (the loop's own) would mark about WIDTH times.
      expect(marks).toBeLessThanOrEqual(3);
    } finally {
      await runtime.stop();
      await monitor.destroy();
      await deletePrefix(prefix);
    }
  });
});
