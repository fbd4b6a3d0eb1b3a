import { afterEach, describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import { defineTrigger } from '../define.js';
import { engineCases } from '../engine/bullmq-test-support.js';
import { eventually } from '../engine/conformance.js';
import { createTriggerRuntime, type TriggerRuntime } from '../runtime/create.js';
import type { FinishedTriggerRun } from '../runtime/run-api.js';

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

const RESULTS = new URL('./__fixtures__/results.mjs', import.meta.url);
const config = {
  observability: { metrics: false, tracing: false },
  retries: 2,
  retryDelay: '1ms',
  timeout: '10s',
} as const;
const expected = { doubled: 42, tags: ['a', 'b'], nested: { ok: true } };

describe.each(engineCases(redisUp))('sandboxed handlers return their result (%s)', (_name, available, make) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function start(): TriggerRuntime {
    const { engine, cleanup } = make();
    const runtime = createTriggerRuntime({
      name: 'sandbox-results',
      env: {},
      engine,
      triggers: {
        jobs: defineTrigger({
          source: { type: 'queue', name: 'sandboxed-jobs', batchSize: 1, batchTimeout: '0ms' },
          sandbox: RESULTS,
          config,
        }),
        mail: defineTrigger({ source: { type: 'email' }, sandbox: RESULTS, config }),
      },
    });
    cleanups.push(cleanup, () => runtime.stop({ timeout: '2s' }));
    return runtime;
  }

  it.skipIf(!available)(
    'the return value reaches send({wait}), getRun, triggerAndWait and onRunFinished',
    async () => {
      const runtime = start();
      const finished: FinishedTriggerRun[] = [];
      const off = runtime.onRunFinished((run) => finished.push(run));
      cleanups.push(async () => off());
      await runtime.start();
      const run = await runtime.queue('sandboxed-jobs').send({ use: 'value', n: 21 }, { wait: true, timeout: '20s' });
      expect(run).toMatchObject({ trigger: 'jobs', status: 'completed', attempts: 1, result: expected });
      expect(await runtime.getRun(run.id)).toMatchObject({ status: 'completed', result: expected });
      await eventually(
        () => expect(finished).toContainEqual(expect.objectContaining({ id: run.id, result: expected })),
        10_000,
      );

      const mailed = await runtime.triggerAndWait('mail', { use: 'value', n: 21 }, { timeout: '20s' });
      expect(mailed).toMatchObject({ trigger: 'mail', status: 'completed', result: expected });
    },
    60_000,
  );

  it.skipIf(!available)(
    'a result structured clone cannot copy fails the run with TRIGGER_SANDBOX_RESULT_UNCLONEABLE, not retried',
    async () => {
      const runtime = start();
      await runtime.start();
      await expect(runtime.dispatch('mail', { use: 'function' })).rejects.toMatchObject({
        code: 'TRIGGER_SANDBOX_RESULT_UNCLONEABLE',
        retryable: false,
      });
      const failed = await runtime
        .queue('sandboxed-jobs')
        .send({ use: 'function' }, { wait: true, timeout: '20s' })
        .catch((error: unknown) => error);
      expect(failed).toMatchObject({
        code: 'RUN_FAILED',
        context: {
          run: { status: 'failed', attempts: 1, error: expect.stringMatching(/cannot cross back from its worker/) },
        },
      });
      // The worker stays usable.
      const after = await runtime.triggerAndWait('mail', { use: 'value', n: 1 }, { timeout: '20s' });
      expect(after.result).toEqual({ ...expected, doubled: 2 });
    },
    60_000,
  );
});
