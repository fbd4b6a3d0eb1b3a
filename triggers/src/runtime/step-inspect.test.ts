import { afterEach, describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import { defineTrigger } from '../define.js';
import { engineCases } from '../engine/bullmq-test-support.js';
import { eventually } from '../engine/conformance.js';
import { createTriggerRuntime, type TriggerRuntime } from './create.js';
import type { TriggerRun } from './run-api.js';
import type { RunRecord } from './runs.js';
import type { TriggerStep } from './step-records.js';

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

const quiet = { observability: { metrics: false, tracing: false } } as const;
const HOSTILE = '</script><img src=x onerror=alert(1)>';

describe.each(engineCases(redisUp))('durable steps are readable with their details (%s)', (_name, available, make) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function start(): { runtime: TriggerRuntime; records: RunRecord[]; calls: Map<string, number> } {
    const { engine, cleanup } = make();
    const calls = new Map<string, number>();
    const count = (key: string) => calls.set(key, (calls.get(key) ?? 0) + 1).get(key)!;
    const runtime = createTriggerRuntime({
      name: 'step-inspect',
      env: {},
      engine,
      triggers: {
        orders: defineTrigger({
          source: { type: 'queue', name: 'inspected-orders', batchSize: 1, batchTimeout: '0ms', retryDelay: '1ms' },
          config: { ...quiet, retries: 3 },
          handle: async (event, ctx) => {
            const body = event.messages[0]!.body as { id: number };
            const reserved = await ctx.step.run('reserve', () => ({ note: HOSTILE, id: body.id }));
            await ctx.step.run('flaky', () => {
              if (count(`flaky:${body.id}`) === 1) throw new Error('first call fails');
              return 'second call works';
            });
            await ctx.step.sleep('pause', '20ms');
            const total = await ctx.step.invoke('price', 'pricing', { id: body.id });
            const paid = await ctx.step.waitForEvent('paid', { event: 'order.paid', match: 'id', timeout: '1m' });
            return { reserved, total, paid: paid?.data };
          },
        }),
        pricing: defineTrigger({
          source: { type: 'email' },
          config: quiet,
          handle: (event) => ({ total: (event as unknown as { id: number }).id * 10 }),
        }),
      },
    });
    const records: RunRecord[] = [];
    runtime.onRun((record) => records.push(record));
    cleanups.push(cleanup, () => runtime.stop({ timeout: '2s' }));
    return { runtime, records, calls };
  }

  it.skipIf(!available)(
    'getRun(id).steps and getSteps(stepsId): kind, status, times, attempts and output, while waiting and once completed',
    async () => {
      const { runtime, records } = start();
      await runtime.start();
      const id = await runtime.queue('inspected-orders').send({ id: 7 });
      let waiting: TriggerStep[] = [];
      await eventually(async () => {
        const run = await runtime.getRun(id);
        expect(run?.steps?.map((s) => [s.id, s.status])).toEqual([
          ['reserve', 'completed'],
          ['flaky', 'completed'],
          ['pause', 'completed'],
          ['price', 'completed'],
          ['paid', 'waiting'],
        ]);
        waiting = run!.steps!;
      }, 20_000);
      const byId = new Map(waiting.map((s) => [s.id, s]));
      expect(byId.get('reserve')).toMatchObject({
        kind: 'run',
        attempts: 1,
        output: { note: HOSTILE, id: 7 },
        startedAt: expect.any(Number),
        endedAt: expect.any(Number),
        durationMs: expect.any(Number),
      });
      expect(byId.get('flaky')).toMatchObject({ kind: 'run', attempts: 2, output: 'second call works' });
      const pause = byId.get('pause')!;
      expect(pause).toMatchObject({ kind: 'sleep', attempts: 1 });
      expect(pause.endedAt).toBe(pause.output);
      expect(pause.durationMs).toBeGreaterThanOrEqual(20);
      expect(byId.get('price')).toMatchObject({ kind: 'invoke', output: { total: 70 } });
      expect(byId.get('paid')).toMatchObject({ kind: 'waitForEvent', startedAt: expect.any(Number) });
      expect(byId.get('paid')).not.toHaveProperty('endedAt');
      for (let i = 1; i < waiting.length; i++)
        expect(waiting[i]!.startedAt!).toBeGreaterThanOrEqual(waiting[i - 1]!.startedAt!);

      await eventually(
        async () => expect((await runtime.sendEvent('order.paid', { id: 7, amount: 70 })).resumed).toBe(1),
        10_000,
      );
      const seen: { run?: TriggerRun | null } = {};
      await eventually(async () => {
        seen.run = await runtime.getRun(id);
        expect(seen.run?.status).toBe('completed');
      }, 20_000);
      const completed = seen.run!;
      // Kept after the run completed, read from the engine's store.
      const paid = completed.steps!.find((s) => s.id === 'paid')!;
      expect(paid).toMatchObject({
        kind: 'waitForEvent',
        status: 'completed',
        output: { name: 'order.paid', data: { id: 7, amount: 70 } },
      });
      expect(paid.endedAt).toBeGreaterThanOrEqual(paid.startedAt!);
      expect(completed.steps!.map((s) => s.id)).toEqual(['reserve', 'flaky', 'pause', 'price', 'paid']);

      const attempt = records.find((r) => r.trigger === 'orders' && r.status === 'ok')!;
      expect(attempt.stepsId).toEqual(expect.any(String));
      expect(await runtime.getSteps(attempt.stepsId!)).toEqual(completed.steps);
      expect(await runtime.getSteps('queue:nowhere:0')).toEqual([]);
    },
    60_000,
  );
});

describe('a failed step', () => {
  it('shows its error and attempts, and no output', async () => {
    const failing = createTriggerRuntime({
      name: 'step-inspect-failing',
      env: {},
      triggers: {
        once: defineTrigger({
          source: { type: 'email' },
          config: { ...quiet, retries: 1, retryDelay: '1ms' },
          handle: async (_event, ctx) => {
            await ctx.step.run('charge', () => {
              throw new Error(`card declined ${HOSTILE}`);
            });
          },
        }),
      },
    });
    const records: RunRecord[] = [];
    failing.onRun((record) => records.push(record));
    try {
      await expect(failing.dispatch('once', {})).rejects.toThrow('card declined');
      expect(records.map((r) => r.stepsId)).toEqual([records[0]!.stepsId, records[0]!.stepsId]);
      const steps = await failing.getSteps(records[0]!.stepsId!);
      expect(steps).toEqual([
        expect.objectContaining({
          id: 'charge',
          kind: 'run',
          status: 'failed',
          attempts: 2,
          error: `card declined ${HOSTILE}`,
        }),
      ]);
      expect(steps[0]).not.toHaveProperty('output');
    } finally {
      await failing.stop({ timeout: '2s' });
    }
  });
});
