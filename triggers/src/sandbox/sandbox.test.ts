import { afterEach, describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import { defineTrigger } from '../define.js';
import { bullmqEngine } from '../engine/bullmq.js';
import { deletePrefix, REDIS_URL, testPrefix } from '../engine/bullmq-test-support.js';
import { eventually } from '../engine/conformance.js';
import { memoryEngine } from '../engine/memory.js';
import type { TriggerEngine } from '../engine/types.js';
import { createTriggerRuntime, type TriggerRuntime } from '../runtime/create.js';
import type { RunRecord } from '../runtime/runs.js';
import type { TriggerDefinition } from '../types.js';

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

const LOOP = new URL('./__fixtures__/loop.mjs', import.meta.url);
/** timeout + gracePeriod = 600 ms (a worker thread takes some ms to start); the loop handler never returns on its first attempt. */
const capped = { observability: { metrics: false, tracing: false }, timeout: '500ms', gracePeriod: '100ms' } as const;

const engines: Array<[string, boolean, () => { engine: TriggerEngine; cleanup: () => Promise<void> }]> = [
  ['memory', true, () => ({ engine: memoryEngine(), cleanup: async () => {} })],
  [
    'bullmq',
    redisUp,
    () => {
      const prefix = testPrefix();
      return { engine: bullmqEngine({ connection: REDIS_URL, prefix }), cleanup: () => deletePrefix(prefix) };
    },
  ],
];

/**
 * Handler runs at once, seen from the runtime: a run starts with its `start`
 * log line (posted by the worker) and ends with its run record (published
 * after the worker finished or was terminated).
 */
function watch(runtime: TriggerRuntime) {
  const stats = { running: 0, peak: 0, records: [] as RunRecord[] };
  runtime.onLog((entry) => {
    if (entry.message !== 'start') return;
    stats.running++;
    stats.peak = Math.max(stats.peak, stats.running);
  });
  runtime.onRun((record) => {
    stats.running--;
    stats.records.push(record);
  });
  return stats;
}

describe.each(engines)('%s engine: sandboxed handlers', (_, up, setup) => {
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

  it.skipIf(!up)(
    'dispatch, concurrency 1: an infinite loop is terminated at timeout + gracePeriod, retried, and the next run proceeds',
    async () => {
      const runtime = runtimeWith({
        looping: defineTrigger({
          source: { type: 'email' },
          sandbox: LOOP,
          config: { ...capped, concurrency: 1, retries: 1, retryDelay: '1ms' },
        }),
      });
      const stats = watch(runtime);
      await Promise.all([1, 2, 3].map(() => runtime.dispatch('looping', { to: 'a@example.com' })));
      expect(stats.records.filter((r) => r.status === 'ok')).toHaveLength(3);
      expect(stats.records.filter((r) => r.status === 'timeout').map((r) => r.error)).toEqual(
        Array(3).fill(expect.stringMatching(/its worker was terminated$/)),
      );
      expect(stats.peak).toBe(1);
      expect(runtime.health()).toEqual({ healthy: true, unsettled: [] });
    },
  );

  it.skipIf(!up)(
    'queue, concurrency 2: looping batches are terminated and redelivered, never above 2 at once',
    async () => {
      const runtime = runtimeWith({
        looping: defineTrigger({
          source: { type: 'queue', name: 'jobs', batchSize: 1, batchTimeout: '10ms', retryDelay: '1ms' },
          sandbox: LOOP,
          config: { ...capped, concurrency: 2, retries: 1 },
        }),
      });
      const stats = watch(runtime);
      await runtime.start();
      await runtime.queue('jobs').sendBatch([1, 2, 3, 4, 5].map((body) => ({ body })));
      // Five first deliveries terminated, five second deliveries acked.
      await eventually(() => expect(stats.records.filter((r) => r.status === 'ok')).toHaveLength(5), 20_000);
      expect(stats.records.filter((r) => r.status === 'timeout')).toHaveLength(5);
      expect(await runtime.failed('jobs')).toEqual([]);
      expect(stats.peak).toBeLessThanOrEqual(2);
      expect(runtime.health().healthy).toBe(true);
    },
  );
});

describe('sandboxed handlers: what crosses into the worker', () => {
  const FEATURES = new URL('./__fixtures__/features.mjs', import.meta.url);
  const runtimes: TriggerRuntime[] = [];
  afterEach(async () => {
    for (const runtime of runtimes.splice(0)) await runtime.stop({ timeout: '1s' });
  });

  function featureRuntime(extra: Record<string, TriggerDefinition<any, any>> = {}) {
    const runtime = createTriggerRuntime({
      env: { secret: 'stays here' },
      triggers: {
        features: defineTrigger({
          source: { type: 'email' },
          sandbox: FEATURES,
          config: { observability: { metrics: false, tracing: false }, retries: 2, retryDelay: '1ms', timeout: '2s' },
        }),
        ...extra,
      },
    });
    runtimes.push(runtime);
    return runtime;
  }

  it('log lines reach onLog with the run trace; ctx.signal aborts with TRIGGER_TIMEOUT', async () => {
    const runtime = featureRuntime();
    const logs: Array<{ message: string; data?: unknown; trigger?: string }> = [];
    runtime.onLog((entry) => logs.push(entry));
    await runtime.dispatch('features', { use: 'log' });
    expect(logs).toContainEqual(
      expect.objectContaining({
        message: 'hello from the worker',
        trigger: 'features',
        data: { attempt: 1, traceId: expect.stringMatching(/^[0-9a-f]{32}$/) },
      }),
    );
  });

  it('ctx.signal aborts in the worker at the timeout, with the code TRIGGER_TIMEOUT', async () => {
    const runtime = featureRuntime({
      quick: defineTrigger({
        source: { type: 'email' },
        sandbox: FEATURES,
        config: { observability: { metrics: false, tracing: false }, retries: 0, timeout: '300ms' },
      }),
    });
    const messages: string[] = [];
    runtime.onLog((entry) => messages.push(entry.message));
    await expect(runtime.dispatch('quick', { use: 'abort' })).rejects.toMatchObject({ code: 'TRIGGER_TIMEOUT' });
    expect(messages).toContain('aborted: TRIGGER_TIMEOUT');
    expect(runtime.health().healthy).toBe(true);
  });

  it.each(['env', 'step'])('ctx.%s fails the run with TRIGGER_SANDBOX_UNSUPPORTED, not retried', async (use) => {
    const runtime = featureRuntime();
    const records: RunRecord[] = [];
    runtime.onRun((record) => records.push(record));
    await expect(runtime.dispatch('features', { use })).rejects.toMatchObject({
      code: 'TRIGGER_SANDBOX_UNSUPPORTED',
      retryable: false,
    });
    expect(records).toHaveLength(1);
  });

  it('noRetry() and a coded non-retryable error stop retries; a plain error is retried', async () => {
    const runtime = featureRuntime();
    const records: RunRecord[] = [];
    runtime.onRun((record) => records.push(record));
    await expect(runtime.dispatch('features', { use: 'noRetry' })).rejects.toThrow('gave up');
    await expect(runtime.dispatch('features', { use: 'coded' })).rejects.toMatchObject({ code: 'CARD_DECLINED' });
    expect(records).toHaveLength(2);
  });

  it('emit() goes through the runtime to the target trigger', async () => {
    const received: unknown[] = [];
    const runtime = featureRuntime({
      sink: defineTrigger({ source: { type: 'email' }, handle: (event) => void received.push(event) }),
    });
    await runtime.dispatch('features', { use: 'emit' });
    await eventually(() => expect(received).toEqual([{ from: 'sandbox', date: new Date(0) }]), 5_000);
  });

  it("queue decisions cross back: ack and deadLetter win over the handler's error", async () => {
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        batch: defineTrigger({
          source: { type: 'queue', name: 'q', batchSize: 3, batchTimeout: '50ms', retryDelay: '1ms' },
          sandbox: FEATURES,
          config: { observability: { metrics: false, tracing: false }, retries: 0 },
        }),
      },
    });
    runtimes.push(runtime);
    await runtime.start();
    await runtime.queue('q').sendBatch([{ body: { use: 'decide' } }, { body: 2 }, { body: 3 }]);
    await eventually(async () => expect(await runtime.failed('q')).toHaveLength(2), 5_000);
    const failed = await runtime.failed('q');
    expect(failed.map((m) => m.body)).toEqual([2, 3]);
    expect(failed.map((m) => m.reason)).toEqual([
      'poison',
      expect.stringMatching(/retries exhausted.*the undecided ones retry/),
    ]);
  });

  it('a worker that crashes while idle is replaced; this process keeps running', async () => {
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        late: defineTrigger({
          source: { type: 'email' },
          sandbox: new URL('./__fixtures__/late-throw.mjs', import.meta.url),
          config: { observability: { metrics: false, tracing: false }, retries: 0, concurrency: 1 },
        }),
      },
    });
    runtimes.push(runtime);
    for (let i = 0; i < 3; i++) {
      await runtime.dispatch('late', {});
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(runtime.health().healthy).toBe(true);
  });

  it('a module without a default export fails with TRIGGER_SANDBOX_MODULE', async () => {
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        empty: defineTrigger({
          source: { type: 'email' },
          sandbox: new URL('./__fixtures__/no-default.mjs', import.meta.url),
          config: { observability: { metrics: false, tracing: false }, retries: 3 },
        }),
      },
    });
    runtimes.push(runtime);
    await expect(runtime.dispatch('empty', {})).rejects.toMatchObject({ code: 'TRIGGER_SANDBOX_MODULE' });
  });

  it('the definition refuses a relative path, handle with sandbox, and webhook triggers', () => {
    expect(() => defineTrigger({ source: { type: 'email' }, sandbox: './handler.js' })).toThrow(
      /^sandbox: expected a file: URL/,
    );
    expect(() => defineTrigger({ source: { type: 'email' }, sandbox: FEATURES, handle: () => {} } as never)).toThrow(
      /^sandbox: give either handle or sandbox/,
    );
    expect(() => defineTrigger({ source: { type: 'webhook', path: '/hook' }, sandbox: FEATURES })).toThrow(
      /^sandbox: webhook triggers cannot be sandboxed/,
    );
    const defined = defineTrigger({ source: { type: 'email' }, sandbox: FEATURES });
    expect(defined.sandbox).toEqual({ module: FEATURES.href });
  });
});
