import { describe, expect, it } from 'vitest';
import { defineTrigger } from '../define.js';
import { eventually } from '../engine/conformance.js';
import type { LogEntry } from '../types.js';
import { createTriggerRuntime } from './create.js';

const quiet = { observability: { metrics: false, tracing: false } } as const;
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A handler that ignores ctx.signal and records how many copies of it run at once. */
function overrunning(ms: number) {
  const stats = { running: 0, peak: 0, runs: 0, finished: 0 };
  const handle = async () => {
    stats.runs++;
    stats.running++;
    stats.peak = Math.max(stats.peak, stats.running);
    await wait(ms);
    stats.running--;
    stats.finished++;
  };
  return { stats, handle };
}

describe('handler timeouts under a handler that ignores ctx.signal', () => {
  it('dispatch: no retry starts while the previous run still executes', async () => {
    const { stats, handle } = overrunning(150);
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        slow: defineTrigger({
          source: { type: 'email' },
          config: { ...quiet, retries: 2, retryDelay: '10ms', timeout: '30ms', gracePeriod: '2s' },
          handle,
        }),
      },
    });
    await expect(runtime.dispatch('slow', {})).rejects.toMatchObject({ code: 'TRIGGER_TIMEOUT' });
    expect(stats).toMatchObject({ runs: 3, peak: 1, running: 0, finished: 3 });
    expect(runtime.health()).toEqual({ healthy: true, unsettled: [] });
  });

  it('queue: one batch in flight means one handler run, even after timeouts', async () => {
    const { stats, handle } = overrunning(150);
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        slow: defineTrigger({
          source: { type: 'queue', name: 'jobs', batchSize: 1, batchTimeout: '10ms', retryDelay: '10ms' },
          config: { ...quiet, retries: 2, timeout: '30ms', gracePeriod: '2s' },
          handle,
        }),
      },
    });
    await runtime.start();
    await runtime.queue('jobs').sendBatch([{ body: 1 }, { body: 2 }]);
    await eventually(async () => expect(await runtime.failed('jobs')).toHaveLength(2), 5_000);
    expect(stats).toMatchObject({ runs: 6, peak: 1 });
    await runtime.stop();
  });

  it('past timeout + gracePeriod the run is reported (TRIGGER_TIMEOUT_UNSETTLED) and the runtime turns unhealthy', async () => {
    let release!: () => void;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        stuck: defineTrigger({
          source: { type: 'email' },
          config: { ...quiet, retries: 0, timeout: '20ms', gracePeriod: '50ms' },
          handle: () => stuck,
        }),
      },
    });
    const logs: LogEntry[] = [];
    runtime.onLog((entry) => logs.push(entry));
    const started = Date.now();
    await expect(runtime.dispatch('stuck', {})).rejects.toMatchObject({
      code: 'TRIGGER_TIMEOUT_UNSETTLED',
      retryable: true,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(65);
    const health = runtime.health();
    expect(health.healthy).toBe(false);
    expect(health.unsettled).toMatchObject([{ trigger: 'stuck', attempt: 1 }]);
    expect(logs.some((l) => l.level === 'error' && l.data?.code === 'TRIGGER_TIMEOUT_UNSETTLED')).toBe(true);
    release();
  });

  it('a handler that settles within the grace period fails with TRIGGER_TIMEOUT and leaves the runtime healthy', async () => {
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        late: defineTrigger({
          source: { type: 'email' },
          config: { ...quiet, retries: 0, timeout: '20ms', gracePeriod: '1s' },
          handle: () => wait(60),
        }),
      },
    });
    await expect(runtime.dispatch('late', {})).rejects.toMatchObject({ code: 'TRIGGER_TIMEOUT' });
    expect(runtime.health().healthy).toBe(true);
  });

  it('many attempts in flight raise no MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const runtime = createTriggerRuntime({
        env: {},
        triggers: {
          t: defineTrigger({ source: { type: 'email' }, config: { ...quiet, retries: 0 }, handle: () => wait(30) }),
        },
      });
      await Promise.all(Array.from({ length: 40 }, () => runtime.dispatch('t', {})));
      await wait(10);
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});

describe('handler timeouts of overlapping runs', () => {
  it('each run times out after its own timeout, whichever runs of the same timeout end before it', async () => {
    const aborted: Record<string, number> = {};
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        timed: defineTrigger({
          source: { type: 'email' },
          config: { ...quiet, retries: 0, timeout: '200ms', gracePeriod: '1s', concurrency: 5 },
          handle: async (event: unknown, ctx) => {
            const { name, ms } = event as { name: string; ms: number };
            const started = Date.now();
            if (ms > 0) return wait(ms);
            await new Promise<void>((resolve) =>
              ctx.signal.addEventListener('abort', () => {
                aborted[name] = Date.now() - started;
                resolve();
              }),
            );
          },
        }),
      },
    });
    const run = (name: string, ms = 0) => runtime.dispatch('timed', { name, ms });
    // Started in this order, so the fast run ends between two runs that time out.
    const first = run('first');
    await wait(20);
    const fast = run('fast', 20);
    await wait(20);
    const last = run('last');
    await expect(fast).resolves.toBeUndefined();
    await expect(first).rejects.toMatchObject({ code: 'TRIGGER_TIMEOUT' });
    await expect(last).rejects.toMatchObject({ code: 'TRIGGER_TIMEOUT' });
    // Once no run is timed, a new one still is.
    await expect(run('later')).rejects.toMatchObject({ code: 'TRIGGER_TIMEOUT' });
    expect(Object.keys(aborted).sort()).toEqual(['first', 'last', 'later']);
    for (const ms of Object.values(aborted)) {
      expect(ms).toBeGreaterThanOrEqual(190);
      expect(ms).toBeLessThan(1_000);
    }
  });
});
