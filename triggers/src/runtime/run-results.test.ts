import { afterEach, describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import { defineTrigger } from '../define.js';
import { engineCases } from '../engine/bullmq-test-support.js';
import { eventually } from '../engine/conformance.js';
import { TriggerError } from '../errors.js';
import { createTriggerRuntime, type TriggerRuntime } from './create.js';
import type { FinishedTriggerRun } from './run-api.js';

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

const quiet = { observability: { metrics: false, tracing: false } } as const;

const engines = engineCases(redisUp);

/** A promise and its resolve function, for handlers that wait for the test. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe.each(engines)('run results and waiting (%s)', (_name, available, make) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function start(triggers: Parameters<typeof createTriggerRuntime>[0]['triggers']): TriggerRuntime {
    const { engine, cleanup } = make();
    const runtime = createTriggerRuntime({ name: 'results', env: {}, engine, triggers });
    cleanups.push(cleanup, () => runtime.stop({ timeout: '2s' }));
    return runtime;
  }

  it.skipIf(!available)(
    'keeps a run’s result: send with wait, getRun, triggerAndWait',
    async () => {
      const runtime = start({
        double: defineTrigger({
          source: { type: 'queue', name: 'numbers', batchSize: 1, batchTimeout: '0ms' },
          config: quiet,
          handle: (event) => ({ doubled: (event.messages[0]!.body as { n: number }).n * 2 }),
        }),
        greet: defineTrigger({
          source: { type: 'email' },
          config: quiet,
          handle: (event) => `hello ${(event as unknown as { name: string }).name}`,
        }),
      });
      await runtime.start();
      const run = await runtime.queue('numbers').send({ n: 21 }, { wait: true, timeout: '10s' });
      expect(run).toMatchObject({ trigger: 'double', queue: 'numbers', status: 'completed', attempts: 1 });
      expect(run.result).toEqual({ doubled: 42 });
      expect(run.timestamps.finished).toBeInstanceOf(Date);
      expect(await runtime.getRun(run.id)).toMatchObject({ status: 'completed', result: { doubled: 42 } });
      expect(await runtime.getRun(run.id, { trigger: 'double' })).toMatchObject({ id: run.id });
      expect(await runtime.getRun('no-such-run')).toBeNull();

      const greeted = await runtime.triggerAndWait('greet', { name: 'Ada' }, { timeout: '10s' });
      expect(greeted).toMatchObject({ trigger: 'greet', status: 'completed', result: 'hello Ada' });
    },
    30_000,
  );

  it.skipIf(!available)(
    'a failed run rejects the wait with RUN_FAILED; a slow one with RUN_WAIT_TIMEOUT',
    async () => {
      const release = gate();
      const runtime = start({
        broken: defineTrigger({
          source: { type: 'queue', name: 'broken', batchSize: 1, batchTimeout: '0ms' },
          config: { ...quiet, retries: 1, retryDelay: '10ms' },
          handle: () => {
            throw new Error('no luck');
          },
        }),
        slow: defineTrigger({
          source: { type: 'queue', name: 'slow', batchSize: 1, batchTimeout: '0ms' },
          config: quiet,
          handle: () => release.promise,
        }),
      });
      await runtime.start();
      const failure = await runtime
        .queue('broken')
        .send({}, { wait: true, timeout: '10s' })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(TriggerError);
      expect(failure).toMatchObject({ code: 'RUN_FAILED' });
      const failedRun = (failure as TriggerError).context!.run as { id: string; attempts: number; error: string };
      expect(failedRun).toMatchObject({ attempts: 2, error: expect.stringContaining('no luck') });
      expect(await runtime.getRun(failedRun.id)).toMatchObject({ status: 'failed' });

      const timeout = await runtime
        .queue('slow')
        .send({}, { wait: true, timeout: '50ms' })
        .catch((error: unknown) => error);
      expect(timeout).toMatchObject({ code: 'RUN_WAIT_TIMEOUT' });
      release.open();
    },
    30_000,
  );

  it.skipIf(!available)(
    'onRunFinished reports completed and failed runs',
    async () => {
      const runtime = start({
        judge: defineTrigger({
          source: { type: 'queue', name: 'verdicts', batchSize: 1, batchTimeout: '0ms' },
          config: { ...quiet, retries: 0 },
          handle: (event) => {
            const { ok } = event.messages[0]!.body as { ok: boolean };
            if (!ok) throw new Error('rejected');
            return 'accepted';
          },
        }),
      });
      const finished: FinishedTriggerRun[] = [];
      const off = runtime.onRunFinished((run) => finished.push(run));
      cleanups.push(async () => off());
      await runtime.start();
      // Wait for the fleet-wide subscription to be live before sending.
      await eventually(async () => {
        await runtime.queue('verdicts').send({ ok: true, probe: true });
        expect(finished.length).toBeGreaterThan(0);
      }, 10_000);
      finished.length = 0;
      const good = await runtime.queue('verdicts').send({ ok: true });
      const bad = await runtime.queue('verdicts').send({ ok: false });
      await eventually(() => {
        expect(finished).toContainEqual(
          expect.objectContaining({ id: good, trigger: 'judge', status: 'completed', result: 'accepted' }),
        );
        expect(finished).toContainEqual(
          expect.objectContaining({
            id: bad,
            trigger: 'judge',
            status: 'failed',
            error: expect.stringContaining('rejected'),
          }),
        );
      }, 10_000);
    },
    30_000,
  );

  it.skipIf(!available)(
    'an idempotency key outlives the ack',
    async () => {
      let runs = 0;
      const runtime = start({
        once: defineTrigger({
          source: { type: 'queue', name: 'once', batchSize: 1, batchTimeout: '0ms' },
          config: quiet,
          handle: () => ++runs,
        }),
      });
      await runtime.start();
      const first = await runtime.queue('once').send({}, { id: 'order-1', wait: true, timeout: '10s' });
      expect(first.result).toBe(1);
      // Acked, yet the id stays taken for the idempotency TTL: nothing new is stored.
      expect(await runtime.queue('once').send({}, { id: 'order-1' })).toBe('order-1');
      expect(await runtime.getRun('order-1')).toMatchObject({ status: 'completed', result: 1 });
      expect(runs).toBe(1);
    },
    30_000,
  );

  it.skipIf(!available)(
    'cancel aborts the signal of a running run; it fails with RUN_CANCELED',
    async () => {
      const started = gate();
      const runtime = start({
        long: defineTrigger({
          source: { type: 'queue', name: 'long', batchSize: 1, batchTimeout: '0ms' },
          config: { ...quiet, retries: 3 },
          handle: async (_event, ctx) => {
            started.open();
            await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
            throw ctx.signal.reason;
          },
        }),
      });
      await runtime.start();
      const id = await runtime.queue('long').send({});
      await started.promise;
      await eventually(async () => expect(await runtime.getRun(id)).toMatchObject({ status: 'active' }), 10_000);
      expect(await runtime.cancel(id)).toBe(true);
      await eventually(
        async () =>
          expect(await runtime.getRun(id)).toMatchObject({
            status: 'failed',
            attempts: 1,
            error: expect.stringContaining('cancelled'),
          }),
        10_000,
      );
      expect(await runtime.cancel(id)).toBe(false);
    },
    30_000,
  );

  it.skipIf(!available)(
    'cancel removes a run that still waits',
    async () => {
      const runtime = start({
        later: defineTrigger({
          source: { type: 'queue', name: 'later', batchSize: 1, batchTimeout: '0ms' },
          config: quiet,
          handle: () => {},
        }),
      });
      const id = await runtime.queue('later').send({}, { delay: '1h' });
      expect(await runtime.getRun(id)).toMatchObject({ status: 'delayed', attempts: 0 });
      expect(await runtime.cancel(id)).toBe(true);
      expect(await runtime.getRun(id)).toBeNull();
    },
    30_000,
  );

  it.skipIf(!available)(
    'cancel of a sandboxed run that ignores its signal terminates the worker after the grace period',
    async () => {
      const runtime = start({
        spin: defineTrigger({
          source: { type: 'queue', name: 'spin', batchSize: 1, batchTimeout: '0ms' },
          sandbox: new URL('../sandbox/__fixtures__/loop.mjs', import.meta.url),
          config: { ...quiet, retries: 2, timeout: '10m', gracePeriod: '100ms' },
        }),
      });
      const started: string[] = [];
      runtime.onLog((entry) => entry.message === 'start' && started.push(entry.message));
      await runtime.start();
      const id = await runtime.queue('spin').send({});
      await eventually(() => expect(started).toHaveLength(1), 10_000);
      expect(await runtime.cancel(id)).toBe(true);
      // Not retried (the cancel is final), though the handler would finish on a second attempt.
      await eventually(
        async () =>
          expect(await runtime.getRun(id)).toMatchObject({
            status: 'failed',
            error: expect.stringContaining('cancelled'),
          }),
        10_000,
      );
      expect(started).toHaveLength(1);
      expect(runtime.health().healthy).toBe(true);
    },
    30_000,
  );
});
