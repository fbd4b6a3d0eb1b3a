/** A run read from BullMQ while its job finishes: the result is never lost between the two reads. Real Redis. */
import { Queue, Worker, type Job } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import { bullmqRuns } from './bullmq-runs.js';
import { deletePrefix, REDIS_URL, testPrefix } from './bullmq-test-support.js';

const redisUp = await serviceAvailable('redis');

describe.skipIf(!redisUp)('bullmqRuns.getRun', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('reports the result of a job that completes between reading its hash and its state', async () => {
    const prefix = testPrefix();
    const connection = { url: REDIS_URL };
    const queue = new Queue('jobs', { connection, prefix });
    const worker = new Worker('jobs', null, { connection, prefix, autorun: false });
    cleanups.push(
      () => deletePrefix(prefix),
      () => queue.close(),
      () => worker.close(),
    );
    await queue.add('m', { body: { n: 1 } }, { jobId: 'run-1' });
    const token = 'test-token';
    const active = (await worker.getNextJob(token, { block: false })) as Job;
    expect(active.id).toBe('run-1');

    // The first hash read sees the job active; it completes before the state is read.
    let reads = 0;
    const racing = new Proxy(queue, {
      get(target, key, receiver) {
        if (key !== 'getJob') return Reflect.get(target, key, receiver) as unknown;
        return async (id: string) => {
          const job = await target.getJob(id);
          if (reads++ === 0) await active.moveToCompleted({ result: { doubled: 2 } }, token, false);
          return job;
        };
      },
    });
    const runs = bullmqRuns({
      open: () => Promise.reject(new Error('not used')),
      queueOf: () => Promise.resolve(racing),
      prefix,
      onError: () => {},
    });

    const run = await runs.getRun('jobs', 'run-1');
    expect(run).toMatchObject({ id: 'run-1', status: 'completed', result: { doubled: 2 } });
    expect(run?.finishedAt).toBeInstanceOf(Date);
    expect(await runs.getRun('jobs', 'no-such-job')).toBeNull();
  });
});
