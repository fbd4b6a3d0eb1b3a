import { afterEach, describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import { defineTrigger } from '../define.js';
import { engineCases } from '../engine/bullmq-test-support.js';
import { concurrencyProbe, eventually } from '../engine/conformance.js';
import type { TriggerDefinition } from '../types.js';
import { createTriggerRuntime, type TriggerRuntime } from './create.js';

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

const quiet = { observability: { metrics: false, tracing: false } } as const;
/** timeout + gracePeriod = 40 ms; the handler ignores ctx.signal and runs 3× that. */
const capped = { ...quiet, timeout: '20ms', gracePeriod: '20ms' } as const;
const OVERRUN_MS = 120;
/** The key of an event dispatched as `{k}`. */
const keyOf = (event: unknown) => (event as { k: string }).k;
const overrun = () => new Promise<void>((resolve) => setTimeout(resolve, OVERRUN_MS));

const engines = engineCases(redisUp);

describe.each(engines)('%s engine: a handler past timeout + gracePeriod keeps its concurrency slot', (_, up, setup) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function runtimeWith(triggers: Record<string, TriggerDefinition<any, any>>): TriggerRuntime {
    const { engine, cleanup } = setup();
    const runtime = createTriggerRuntime({ env: {}, engine, triggers });
    cleanups.push(cleanup, () => runtime.stop({ timeout: '2s' }));
    return runtime;
  }

  it.skipIf(!up)('dispatch, concurrency 1: retries and other dispatches wait for the abandoned run', async () => {
    const { stats, track } = concurrencyProbe();
    const runtime = runtimeWith({
      slow: defineTrigger({
        source: { type: 'email' },
        config: { ...capped, concurrency: 1, retries: 1, retryDelay: '1ms' },
        handle: () => track('all', overrun),
      }),
    });
    const results = await Promise.allSettled([1, 2, 3].map(() => runtime.dispatch('slow', {})));
    expect(results.map((r) => r.status === 'rejected' && (r.reason as { code?: string }).code)).toEqual([
      'TRIGGER_TIMEOUT_UNSETTLED',
      'TRIGGER_TIMEOUT_UNSETTLED',
      'TRIGGER_TIMEOUT_UNSETTLED',
    ]);
    // Three dispatches × two attempts, every one of them ran to its end.
    await eventually(() => expect(stats.handled).toBe(6), 10_000);
    expect(stats.peak).toBe(1);
    // Reported as documented: the process is unhealthy.
    expect(runtime.health().healthy).toBe(false);
    expect(runtime.health().unsettled).toHaveLength(6);
  });

  it.skipIf(!up)('dispatch: a concurrencyKey stays taken until its abandoned run settles', async () => {
    const { stats, track } = concurrencyProbe();
    const runtime = runtimeWith({
      keyed: defineTrigger({
        source: { type: 'email' },
        config: { ...capped, concurrency: 10, concurrencyKey: keyOf, retries: 0 },
        handle: (event) => track(keyOf(event), overrun),
      }),
    });
    await Promise.allSettled(['a', 'a', 'a', 'b', 'b'].map((k) => runtime.dispatch('keyed', { k })));
    await eventually(() => expect(stats.handled).toBe(5), 10_000);
    expect(stats.keyPeak).toBe(1);
    expect(stats.peak).toBe(2);
  });

  it.skipIf(!up)('queue, concurrency 2: retries and the next batches wait for abandoned runs', async () => {
    const { stats, track } = concurrencyProbe();
    const runtime = runtimeWith({
      slow: defineTrigger({
        source: { type: 'queue', name: 'jobs', batchSize: 1, batchTimeout: '10ms', retryDelay: '1ms' },
        config: { ...capped, concurrency: 2, retries: 1 },
        handle: () => track('all', overrun),
      }),
    });
    await runtime.start();
    await runtime.queue('jobs').sendBatch([1, 2, 3, 4, 5].map((body) => ({ body })));
    // Five messages × two deliveries, each kept as failed once its retries are spent.
    await eventually(async () => expect(await runtime.failed('jobs')).toHaveLength(5), 20_000);
    await eventually(() => expect(stats.handled).toBe(10), 10_000);
    expect(stats.peak).toBeLessThanOrEqual(2);
    expect(runtime.health().healthy).toBe(false);
  });
});
